//===- an5d/Analysis.h - What kind of stencil this is ---------------------===//
//
// Stage 3. From the isl model: proof that the update is Jacobi-style, the
// neighbour offsets, the reach on each side of each dimension, the shape,
// diagonal-access freedom, associativity and in-bounds reads.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_ANALYSIS_H
#define AN5D_ANALYSIS_H

#include "an5d/Diagnostics.h"
#include "an5d/Polyhedral.h"
#include "an5d/Stencil.h"

#include <memory>
#include <optional>
#include <vector>

namespace an5d {

enum class Shape { Star, Box, General };
const char *shapeName(Shape S);

/// The update as a sum of terms that each read one streaming-dimension
/// plane, possibly divided or multiplied by a read-free factor: what the
/// associative (partial summation) kernel evaluates plane by plane.
struct AssociativeForm {
  struct Term {
    bool Negated = false;
    int64_t Plane = 0;      // streaming offset the term reads
    bool ReadsArray = true; // false: a constant term (added at plane 0)
    const Expr *E = nullptr;
    /// A term built by distributing factors (--fast-math); E points into it.
    std::shared_ptr<const Expr> Distributed;
  };
  std::vector<Term> Terms;
  /// "" when the sum is the result; otherwise "/" or "*" with Factor.
  std::string OuterOp;
  const Expr *Factor = nullptr;
  const Expr *Outer = nullptr; // the '/' or '*' node that applies Factor
  /// The sum the terms make (the update, or Outer's other operand): its C
  /// type is the partial sums' (float terms add in float even when a double
  /// factor scales their sum).
  const Expr *Sum = nullptr;
  /// The partial sums add constant terms first, then each plane's terms as
  /// the plane arrives (increasing order); C adds them in source order. The
  /// first term whose place differs (a later plane's or a read's came
  /// before it), or null: then the kernel adds exactly as C does. Always
  /// null under --fast-math, which allows reassociation.
  const Expr *OutOfOrder = nullptr;
};

/// How the analysis may treat the update's arithmetic.
struct AnalysisOptions {
  /// --fast-math: nvcc's --use_fast_math meaning (approximate division and
  /// sqrt) and reassociation, so a read-free factor may be distributed over
  /// a sum whose terms read several rows.
  bool FastMath = false;
};

struct StencilAnalysis {
  unsigned Dims = 0;
  /// Analysed under --fast-math (AnalysisOptions): every later stage reads
  /// the math mode here (division helpers, build line, verify tolerance).
  bool FastMath = false;
  /// A double stencil whose update multiplies, adds, divides or calls in
  /// float (`0.5f * (float)A[...]`): those operations round as float's do
  /// (and nvcc contracts them into float FMAs), so the verify tolerance is
  /// float's.
  bool FloatInDouble = false;
  /// Offset of each read (same order as Stencil::Reads), one entry per
  /// spatial dimension, streaming dimension first.
  std::vector<std::vector<int64_t>> ReadOffsets;
  /// Distinct offsets, sorted.
  std::vector<std::vector<int64_t>> Offsets;
  /// Reach below and above the cell in each dimension (>= 0).
  std::vector<int64_t> ReachLo, ReachHi;
  int64_t Radius = 0; // the largest reach
  Shape StencilShape = Shape::General;
  bool DiagonalFree = false;
  /// Absent when the update reads a coefficient array: a term's factor then
  /// depends on the cell, which the partial sums do not know.
  std::optional<AssociativeForm> Associative;
  /// Coefficient arrays the update reads (Stencil::CoefArrays) and the
  /// distinct elements each cell reads from them.
  unsigned CoefArrays = 0;
  unsigned CoefReadsPerCell = 0;
  /// The update reads the time step (as a value, or an array indexed by it).
  bool ReadsTime = false;
  /// Bytes per cell of the coefficient arrays with the grid's dimensions
  /// (those whose elements come from memory, not the caches; the model).
  unsigned CoefGridBytes = 0;
  /// The write's plane is (t + WriteShift) % Planes (Stencil::Planes).
  int64_t WriteShift = 1;
  unsigned Planes = 2;
  /// 3 when a step also reads the step before the previous one, at the
  /// cell itself (OlderRead), or the write cycles through three planes.
  unsigned TimeLevels = 2;
  /// Per read (Stencil::Reads): it reads that older level.
  std::vector<bool> OlderRead;
  bool Jacobi = false;
  bool BoundsProven = false;
  std::vector<std::string> BoundsNotes;
  /// Distinct literals the update computes with as doubles whose value no
  /// SASS immediate holds (wideDoubleLiteral): each needs a register pair
  /// wherever ptxas keeps it (Plan::PtxasOpt).
  int64_t WideDoubleLiterals = 0;

  void dump(llvm::raw_ostream &OS) const;
};

/// An operation the generated code computes bit for bit as IEEE does,
/// without nvcc's branchy sequence, where a range test says the proof
/// covers the operands (a warp outside it takes the IEEE operation):
/// * Divide: a float or double division by a constant c, a multiplication
///   by RN(1 / c) and two FMAs (proved per c at generation time;
///   docs/codegen.md, "Division by a constant"); printed Helper(dividend);
/// * Reciprocal: a float 1.0f / x, an approximate reciprocal refined by
///   FMAs; printed Helper(x);
/// * SquareRoot: a float sqrtf(x), an approximate reciprocal square root
///   refined by FMAs; printed Helper(x);
/// * ReciprocalSquareRoot: a float 1.0f / sqrtf(x), both in turn with one
///   range test (x's range puts the root in the reciprocal's); Helper(x).
/// The last two were checked for every float on an H200 (docs/codegen.md,
/// "Reciprocal and square root"). The model counts each as a few FMA-pipe
/// instructions.
struct ExactHelper {
  enum class Kind { Divide, Reciprocal, SquareRoot, ReciprocalSquareRoot };
  ElemType Type = ElemType::Float; // the operation's precision
  double Value = 0;      // Divide: c, a value of Type
  double Reciprocal = 0; // Divide: RN(1 / c) in Type
  std::string Text;      // Divide: c as comments print it: 118, -2.5
  /// The device function: an5d_div_118, an5d_ddiv_118, an5d_rcp_rn,
  /// an5d_sqrt_rn.
  std::string Helper;
  Kind Op = Kind::Divide;
  /// What the helper takes, where the node's printer would not find it:
  /// Reciprocal's divisor, ReciprocalSquareRoot's root's argument.
  const Expr *Operand = nullptr;
  /// Float c even, whole and not a power of two: the correcting FMA
  /// multiplies by ReciprocalBelow (the float next to 1 / c towards zero)
  /// when q0's last bit is 0 and by the one after it when it is 1, so a
  /// quotient exactly halfway between two subnormals rounds to the even one
  /// (ConstantDivision.cpp). 0 where the plain RN(1 / c) serves.
  double ReciprocalBelow = 0;
  /// The proof covers |RN(x * Reciprocal)| in [rangeLow(), rangeHigh()] and
  /// zeros; the helper divides for other x. A float c that is a whole number
  /// is proved down to zero, subnormal quotients included (rangeLow() 0).
  static constexpr float RangeLow = 0x1p-80f, RangeHigh = 0x1p80f;
  static constexpr double DoubleRangeLow = 0x1p-800, DoubleRangeHigh = 0x1p800;
  bool WholeRange = false; // float whole c: proved down to zero
  double rangeLow() const {
    if (WholeRange)
      return 0;
    return Type == ElemType::Float ? RangeLow : DoubleRangeLow;
  }
  double rangeHigh() const {
    return Type == ElemType::Float ? RangeHigh : DoubleRangeHigh;
  }
};

/// The divisor of Division when it is a float or double '/' whose right
/// operand is a constant the sequence is exact for; nullopt otherwise.
std::optional<ExactHelper> constantDivisor(const Expr &Division);
/// Node's helper when it is a float reciprocal 1.0f / x (x not a constant),
/// a float sqrtf(x), or both, 1.0f / sqrtf(x) (x a float); nullopt
/// otherwise. Operand points into Node.
std::optional<ExactHelper> refinedHelper(const Expr &Node);
/// Appends every node of E that has a helper (exactHelper) whose function
/// is not yet in Out, innermost first.
void collectExactHelpers(const StencilAnalysis &A, const Expr &E,
                         std::vector<ExactHelper> &Out);

/// The value a floating literal has where C computes with it as a double
/// (a float literal converted); nullopt when its spelling does not parse.
std::optional<double> literalAsDouble(const Expr &Literal);
/// True when no SASS immediate holds V: DFMA, DMUL and DADD carry only a
/// double's upper 32 bits, so V's lower 32 bits must be zero.
bool wideDoubleLiteral(double V);

/// The exact helper the generated code calls for Node: a division's
/// constantDivisor, a float reciprocal 1.0f / x or a float sqrtf(x); for
/// float none under --fast-math, where nvcc divides and takes square roots
/// approximately anyway (the helper would only cost); double divisions keep
/// theirs (nvcc's fast math leaves double exact and slow).
std::optional<ExactHelper> exactHelper(const StencilAnalysis &A,
                                       const Expr &Node);

/// Stage 3 for several fields (StencilForm::Fields): where each read is
/// and whether the cells of each loop nest may run in parallel.
struct FieldsAnalysis {
  unsigned Dims = 0;
  /// Per Stencil::Reads entry: its offset from the cell its statement
  /// writes, one per grid dimension.
  std::vector<std::vector<int64_t>> ReadOffsets;
  /// Per read: the statements before its own in the step that write the
  /// element it reads (its field, and plane where it has two): it sees
  /// their values where they wrote, the previous step's elsewhere.
  std::vector<std::vector<unsigned>> WrittenEarlier;
  /// Per statement and grid dimension: how far its reads reach below and
  /// above the cell it writes (>= 0).
  std::vector<std::vector<int64_t>> ReachLo, ReachHi;
  /// Accesses isl could not prove inside their field for every size.
  std::vector<std::string> BoundsNotes;

  void dump(const Stencil &S, llvm::raw_ostream &OS) const;
};

/// Entry point of stage 3 for several fields: refuses (reported) a read
/// or write that meets another iteration of its own loop nest in one step
/// (C's loop order then decides what it sees) and an access outside its
/// field.
std::optional<FieldsAnalysis> analyzeFields(const Stencil &S,
                                            const FieldsModel &M,
                                            Diagnoser &D);

/// Entry point of stage 3: the analysis, or nullopt after reporting why the
/// stencil cannot be handled.
std::optional<StencilAnalysis> analyzeStencil(const Stencil &S,
                                              const ScopModel &M,
                                              Diagnoser &D,
                                              const AnalysisOptions &O = {});

/// Appends the read index (into Stencil::Reads) of every read in E.
void collectReads(const Expr &E, std::vector<unsigned> &Out);

/// Decomposes an update into per-plane terms; nullopt if some term reads
/// several planes, with *Offending (when given) set to that term. Without
/// Distribute (exact arithmetic) OutOfOrder names the first term that C
/// adds out of the partial sums' order.
/// ReadPlane gives each read's streaming offset. With Distribute (only
/// under --fast-math: it reassociates), a factor that reads no cell is
/// distributed over a sum whose terms read several planes: w * (a + b)
/// becomes the terms w * (a) and w * (b), (a + b) / c the terms (a) / c
/// and (b) / c.
std::optional<AssociativeForm>
associativeForm(const Expr &Update, const std::vector<int64_t> &ReadPlane,
                const Expr **Offending = nullptr, bool Distribute = false);

} // namespace an5d

#endif
