//===- an5d/Stencil.h - The stencil description (frontend output) --------===//
//
// Plain data the frontend extracts from the scop region: loops, bounds,
// the array, its accesses and the update expression as a tree. Later stages
// read this and never the Clang AST. Source ranges stay valid while the
// SourceSession that produced them lives; they only feed diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_STENCIL_H
#define AN5D_STENCIL_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace an5d {

/// Element type of the stencil array.
enum class ElemType { Float, Double };
const char *elemTypeName(ElemType T);
unsigned elemTypeBytes(ElemType T);

/// constant + sum(coeff * symbol); symbols are parameters or loop iterators.
struct AffineExpr {
  int64_t Constant = 0;
  std::map<std::string, int64_t> Coeffs; // sorted: deterministic printing

  static AffineExpr constant(int64_t C);
  static AffineExpr symbol(const std::string &Name);
  AffineExpr operator+(const AffineExpr &O) const;
  AffineExpr operator-(const AffineExpr &O) const;
  AffineExpr scaled(int64_t Factor) const;
  bool isConstant() const { return Coeffs.empty(); }
  int64_t coeff(const std::string &Name) const;
  /// Human and isl readable: "n - 2", "t + 1", "0". Rename, if given,
  /// maps each symbol to the name to print.
  std::string str(std::string (*Rename)(const std::string &) = nullptr) const;
  bool operator==(const AffineExpr &O) const {
    return Constant == O.Constant && Coeffs == O.Coeffs;
  }
};

/// One loop of the nest with inclusive affine bounds (t < T becomes T - 1).
struct Loop {
  std::string Iter;
  AffineExpr Lower;
  AffineExpr Upper;
  clang::SourceRange Range;
  /// The iterator is declared before the loop and assigned in its header
  /// ('int i; ... for (i = 0; ...)'), not in it ('for (int i = 0; ...)'):
  /// the program may read it after the nest, and it is shared in OpenMP.
  bool IterDeclaredOutside = false;
};

/// How the program declares the stencil array; decides what the host code
/// can know about its extent.
enum class ArrayForm {
  PointerToArray, // float (*A)[n][m]: first extent unknown
  ArrayParam,     // float A[2][n][m] as a function parameter
  LocalOrGlobal,  // float A[2][N][N] with automatic or static storage
  /// double *A indexed A[(i + a) * m + j + b]: the extents after the first
  /// are the strides the index multiplies by (a pointer swap's planes).
  FlatPointer,
};

struct ArrayInfo {
  std::string Name;
  ElemType Elem = ElemType::Float;
  ArrayForm Form = ArrayForm::LocalOrGlobal;
  /// One per dimension, time dimension first; nullopt where not declared.
  std::vector<std::optional<AffineExpr>> Extents;
  /// The C spelling of each extent ("" where unknown), for host code.
  std::vector<std::string> ExtentText;
  clang::SourceRange DeclRange;
};

/// A read or the write of the stencil array. The first index selects the
/// plane: (TimeBase) mod Modulus, e.g. (t + 1) % 2 or (t + 1) & 1 (Modulus
/// 1: the one plane of an array updated in place).
struct Access {
  /// Several fields (StencilForm::Fields): the field, Stencil::Fields.
  unsigned Field = 0;
  AffineExpr TimeBase;
  int64_t Modulus = 2;
  /// Selected with C's '%', whose result keeps the sign of TimeBase (a
  /// negative plane index), rather than with '& 1'.
  bool SignedRemainder = true;
  std::vector<AffineExpr> Space; // one per spatial dimension
  clang::SourceRange Range;
  /// "A[(t + 1) % 2][i][j]"; Skip leaves out the first spatial subscripts
  /// (a 1D stencil's virtual row, Stencil::VirtualDims, in messages).
  std::string str(const std::string &Array, unsigned Skip = 0) const;
};

/// Scalars are type names of the C values the update computes with.
enum class ScalarType { Int, Float, Double, LongDouble, Other };
const char *scalarTypeName(ScalarType T);

/// A value the update reads that is not the stencil array: a parameter,
/// a local or a global; passed to kernels by value.
struct ScalarVar {
  std::string Name;
  ScalarType Type = ScalarType::Double;
  bool IsConst = false;
  clang::SourceRange Range; // first use in the update
};

/// A read of a coefficient array: an array the scop reads and never writes
/// (a variable coefficient, c[i][j] * A[t % 2][i][j]). Each subscript is a
/// spatial iterator plus a constant, or a constant.
struct CoefAccess {
  unsigned Array = 0; // index into Stencil::CoefArrays
  /// Its subscripts name the time loop's iterator (as written) and no
  /// spatial one: one element per time step for every cell (src[t]).
  bool TimeIndexed = false;
  /// One per dimension of the array: Iter (a spatial iterator's name, ""
  /// for a constant subscript) plus Offset.
  struct Subscript {
    std::string Iter;
    int64_t Offset = 0;
  };
  std::vector<Subscript> Index;
  clang::SourceRange Range;
  /// "c[i + 1][j]".
  std::string str(const std::string &Array) const;
};

/// The update expression as a tree. Every node records its C type so the
/// emitter can reproduce C's arithmetic (e.g. sqrt on a float argument).
struct Expr {
  /// Time: the time loop's iterator as a value (its step as written).
  /// Select: 'c ? a : b' (Args c, a, b); comparisons and '&&', '||', '!'
  /// are Binary and Unary nodes of type Int.
  enum Kind { Read, CoefRead, Time, Scalar, Literal, Paren, Unary, Binary,
              Call, Cast, Select };
  Kind K = Literal;
  ScalarType Type = ScalarType::Double;
  /// Literal: its spelling; Scalar: the name; Unary/Binary: the operator;
  /// Call: the function; Cast: the target type.
  std::string Text;
  /// Read: index into Stencil::Reads; CoefRead: into Stencil::CoefReads.
  unsigned ReadIndex = 0;
  std::vector<Expr> Args;  // operands, call arguments
  std::vector<ScalarType> ParamTypes; // Call: declared parameter types
  clang::SourceRange Range;
};

/// How the program keeps the two planes of the double buffer.
enum class StencilForm {
  PlaneIndex, // one array with a plane dimension: A[(t + 1) % 2] = f(A[t % 2])
  TwoArrays,  // two arrays in turn: { B = f(A); A = f(B); } per time iteration
  PointerSwap, // { out = f(in); tmp = in; in = out; out = tmp; } per iteration
  /// Jacobi with a copy-back: { B = f(A); A = B; } per iteration over the
  /// same cells. Both device planes carry A's boundary (plane 1 starts as a
  /// copy of A); B keeps its own and ends with the last step's cells.
  CopyBack,
  /// One array without a plane dimension updated in place (PolyBench's
  /// seidel-2d): read as one plane, Modulus 1, so that the analysis finds
  /// the read of a value computed in the same step; always refused there.
  InPlace,
  /// Several fields updated in one time step (fdtd-2d's ey, ex, hz): each
  /// assignment a statement of its own (Stencil::FieldStatements), run in
  /// program order every step.
  Fields,
};
const char *stencilFormName(StencilForm F);

/// A field of a several-field time step: an array the scop writes, updated
/// in place (Planes 1: 'ey[i][j] = ey[i][j] - ...') or through a plane
/// index (Planes 2: 'u[(t + 1) % 2][i][j] = ...'). Its extents are all
/// known: the plane dimension's (2) first where it has one.
struct FieldInfo {
  ArrayInfo Array;
  unsigned Planes = 1;
  /// Two arrays whose pointers the time loop swaps after its nests ('tmp =
  /// u; u = un; un = tmp;'): Array is the one the steps read (plane 0 on the
  /// device, named by the pointer read when the loop starts, its extents
  /// with the plane's 2 first) and SwapOut the pointer they write (plane 1);
  /// SwapTemp the swap's pointer when it is declared before the loop.
  std::string SwapOut, SwapTemp;
  unsigned SwapOrder = 0; // its swap's place among the step's swaps
  bool swapped() const { return !SwapOut.empty(); }
};

/// One assignment of a several-field time step, in program order. Its
/// cells: one per iteration of its nest's loops, at the write's subscripts
/// (each grid dimension an iterator of the nest, in loop order, or a
/// constant: fdtd-2d's 'ey[0][j] = ...' is a row of cells).
struct FieldStatement {
  unsigned Field = 0;       // the field it writes (Stencil::Fields)
  unsigned Nest = 0;        // the statement of the time loop's body holding it
  std::vector<Loop> Loops;  // its nest's spatial loops, outermost first
  Access Write;             // Space: one subscript per grid dimension
  /// Its reads of fields: Stencil::Reads[FirstRead, EndRead).
  unsigned FirstRead = 0, EndRead = 0;
  /// Its coefficient reads: Stencil::CoefReads[FirstCoefRead, EndCoefRead).
  unsigned FirstCoefRead = 0, EndCoefRead = 0;
  Expr Update;
  clang::SourceRange Range; // the assignment
  /// The write's subscript along grid dimension D is the nest's loop
  /// LoopOf[D], or (-1) the constant Write.Space[D].Constant.
  std::vector<int> LoopOf;
};

/// One assignment of the scop as written, for the dump and diagnostics
/// (TwoArrays: one per loop nest, in program order).
struct Statement {
  std::string Writes;       // the array it assigns
  std::string Reads;        // the array its update reads
  clang::SourceRange Range; // the assignment
};

struct Stencil {
  std::string Function;  // the function holding the scop
  std::string FileName;
  unsigned ScopLine = 0; // line of #pragma scop
  ElemType Elem = ElemType::Float;
  StencilForm Form = StencilForm::PlaneIndex;
  /// The double buffer as one array with a plane dimension. TwoArrays: a
  /// view of the two user arrays, named after plane 0, with extent 2 there;
  /// Write, Reads and Update are the first statement's in that view (the
  /// array it writes is plane (t + 1) % 2, the one it reads t % 2).
  ArrayInfo Array;
  /// TwoArrays, PointerSwap: the user's arrays holding device plane 0 (read
  /// by the first statement; PointerSwap: what the read pointer points to
  /// when the loop starts) and plane 1 (written by it), each without a plane
  /// dimension. A pointer's undeclared first extent is the rows it accesses.
  std::vector<ArrayInfo> PlaneArrays;
  /// TwoArrays: the two, in order; CopyBack: the update, then the copy.
  std::vector<Statement> Statements;
  /// Planes the write cycles through: 2, or 3 (PlaneIndex with '% 3', a
  /// scheme of second order in time; the analysis finds its time levels).
  unsigned Planes = 2;
  /// The loop over Jacobi steps the device runs. TwoArrays: two steps per
  /// iteration of the user's loop, from 2 * lo to 2 * hi + 1; PointerSwap,
  /// CopyBack: one, from 0 to hi - lo (its iterator keeps the user's name);
  /// WrittenTime is then the loop as written.
  Loop Time;
  Loop WrittenTime;
  /// PointerSwap: the pointer the swap goes through when it is declared
  /// before the loop (the program may read it after); "" otherwise.
  std::string SwapTemp;
  std::vector<Loop> Space; // outermost (streaming) first
  /// The spatial loops as the source nests them, outermost first (indices
  /// into Space): the identity, unless the frontend put loops written in
  /// another order than the array's dimensions ('for j for i: A[i][j]')
  /// into the array's order, which a step's independent cells allow.
  std::vector<unsigned> SpaceAsWritten;
  /// Leading spatial dimensions an5dc added and the user's code does not
  /// have: 1 for a 1D stencil, run as 2D with one row (an5d_row).
  unsigned VirtualDims = 0;
  std::vector<std::string> Params; // symbolic sizes, in order of appearance
  std::vector<ScalarVar> Scalars;
  Access Write;
  std::vector<Access> Reads;
  /// Read-only coefficient arrays (each with the extents it is declared
  /// with; a pointer's first extent unknown) and their reads, in order of
  /// first appearance.
  std::vector<ArrayInfo> CoefArrays;
  std::vector<CoefAccess> CoefReads;
  /// The update reads the time loop's iterator as a value (of TimeType);
  /// arrays read at it are CoefReads (TimeIndexed).
  bool ReadsTime = false;
  ScalarType TimeType = ScalarType::Int;
  Expr Update;
  /// Fields: the fields and their statements. Reads then holds every
  /// statement's reads (each names its field); Space names the grid's
  /// dimensions (the loops of the first nest that spans them all), and
  /// Array, Write and Update are unused.
  std::vector<FieldInfo> Fields;
  std::vector<FieldStatement> FieldStatements;
  /// Fields: the grid's dimensions (every field's, its plane left out).
  unsigned GridDims = 0;
  clang::SourceRange ScopRange;  // from '#pragma scop' to '#pragma endscop'
  clang::SourceRange NestRange;  // the time loop statement

  unsigned numSpaceDims() const { return Space.size(); }
  /// The spatial loops in the source's nesting order (SpaceAsWritten).
  std::vector<const Loop *> spaceAsWritten() const {
    std::vector<const Loop *> R;
    for (size_t D = 0; D < Space.size(); ++D)
      R.push_back(&Space[D < SpaceAsWritten.size() ? SpaceAsWritten[D] : D]);
    return R;
  }
  /// The time loop as the program writes it.
  const Loop &timeLoopAsWritten() const {
    return planesAreArrays() ? WrittenTime : Time;
  }
  /// The two planes are two user arrays (TwoArrays, PointerSwap, CopyBack).
  bool planesAreArrays() const {
    return Form == StencilForm::TwoArrays ||
           Form == StencilForm::PointerSwap || Form == StencilForm::CopyBack;
  }
  /// Device step 0 is the time loop's first iteration, one step per
  /// iteration (PointerSwap, CopyBack): the iterator's value at a step is
  /// the step plus WrittenTime.Lower.
  bool stepsFromZero() const {
    return Form == StencilForm::PointerSwap || Form == StencilForm::CopyBack;
  }
  /// Jacobi steps per iteration of the time loop as written (1 or 2).
  unsigned stepsPerIteration() const {
    return Form == StencilForm::TwoArrays ? 2 : 1;
  }
  /// The name of the user array an access of the first statement touches:
  /// Array's, or for TwoArrays the plane array it selects.
  const std::string &arrayOf(const Access &A) const;
  void dump(llvm::raw_ostream &OS) const;

private:
  void dumpFields(llvm::raw_ostream &OS) const;
};

/// How printExprAs spells the parts of an expression that depend on where it
/// is printed.
struct ExprSpelling {
  /// Per read index; a view, so that printing many small terms of a large
  /// update does not copy every read's text per term.
  llvm::ArrayRef<std::string> ReadText;
  /// Per coefficient read index (Stencil::CoefReads).
  llvm::ArrayRef<std::string> CoefText;
  /// The time loop's iterator as a value ("" prints its name).
  std::string TimeText;
  std::map<std::string, std::string> ScalarName; // renamed scalars
  /// Give each call argument whose type differs from the parameter's an
  /// explicit cast, so C++ overloads compute what C computes.
  bool CastCallArguments = false;
  /// Where set and returning a name for a '/' node or a call, the node
  /// prints as name(operand) instead: for a division the expression the
  /// callback sets Operand to (the dividend, the divisor, or the argument
  /// of a square root it divides by), for a call its arguments.
  std::function<std::string(const Expr &Node, const Expr *&Operand)>
      ExactHelper;
  /// Printed after the operand in such a call: ", an5d_unproved".
  std::string ExactHelperArgs;
  /// Where set, called for each floating literal whose value C uses as a
  /// double (a double literal, or a float one that a double operation
  /// converts); a non-empty result prints instead of the literal.
  std::function<std::string(const Expr &Literal)> DoubleLiteral;
};

/// Prints an expression as C with the reads and scalars spelled by Spell.
std::string printExprAs(const Expr &E, const ExprSpelling &Spell);

/// Each coefficient read as written: "c[i + 1][j]", by CoefReads index.
std::vector<std::string> coefReadTexts(const Stencil &S);

/// Prints an update expression as written: reads as A[t % 2][i - 1][j].
std::string printExpr(const Stencil &S, const Expr &E);

} // namespace an5d

#endif
