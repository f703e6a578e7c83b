//===- Extractor.h - Scop region to stencil description (private) ---------===//
//
// One Extractor walks the Clang AST of one scop region and fills one
// Stencil. The region, loop nest and loop headers are read in Extract.cpp,
// affine expressions, array accesses and the array in ExtractAccess.cpp, the
// update expression in ExtractUpdate.cpp. Every construct outside the
// accepted input language is reported with its source range and what would
// be accepted instead; a member returning false or nullopt has reported.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_LIB_FRONTEND_EXTRACTOR_H
#define AN5D_LIB_FRONTEND_EXTRACTOR_H

#include "an5d/Frontend.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace an5d {
namespace frontend {

/// The scalar type of T; Other for anything but integers and floating types.
ScalarType scalarTypeOf(clang::QualType T);

/// Reads the one scop region of a parsed session into a Stencil.
class Extractor {
public:
  Extractor(SourceSession &Session)
      : Ctx(Session.ast()), SM(Session.sources()), D(Session.diags()),
        Pragmas(Session.pragmas()) {}

  /// The stencil, or nullopt after the first error was reported.
  std::optional<Stencil> run();

private:
  // Region and nest structure (Extract.cpp).
  bool findRegion(clang::SourceLocation &Begin, clang::SourceLocation &End);
  const clang::FunctionDecl *enclosingFunction(clang::SourceLocation Loc);
  const clang::Stmt *regionStatement(const clang::FunctionDecl *F,
                                     clang::SourceLocation Begin,
                                     clang::SourceLocation End);
  bool collectNest(const clang::Stmt *Top,
                   std::vector<const clang::ForStmt *> &Loops,
                   const clang::Stmt *&Body);
  const clang::Stmt *singleStatement(const clang::Stmt *S, bool &Ok);
  bool peelLoop(const clang::Stmt *&Cur,
                std::vector<const clang::ForStmt *> &Loops, bool &Ok);
  bool parseLoop(const clang::ForStmt *F, Loop &L);
  bool parseIterator(const clang::ForStmt *F, const clang::VarDecl *&Var,
                     const clang::Expr *&Init);
  bool parseCondition(const clang::ForStmt *F, const clang::VarDecl *Var,
                      Loop &L);
  bool parseIncrement(const clang::ForStmt *F, const clang::VarDecl *Var);
  bool checkRectangular(const std::vector<const clang::ForStmt *> &Loops);

  // Affine expressions, accesses and the array (ExtractAccess.cpp).
  std::optional<AffineExpr> toAffine(const clang::Expr *E);
  std::optional<int64_t> constantValue(const clang::Expr *E);
  /// E's value as an integer constant where the unrolled loops' iterators
  /// are their current values (BoundConstants); nullopt otherwise.
  std::optional<int64_t> boundValue(const clang::Expr *E);
  /// A read of a const array with its values in the program at constant
  /// subscripts ('c[r]' with r unrolled): the element as a literal cast to
  /// the element type; nullopt for any other read.
  std::optional<Expr> constantElement(const clang::VarDecl *V,
                                      const std::vector<const clang::Expr *> &Indices,
                                      clang::SourceRange Use);
  bool parseAccess(const clang::Expr *E, Access &A, bool IsWrite = false);
  bool parsePlaneIndex(const clang::Expr *E, Access &A);
  bool describeArray(const clang::VarDecl *V, clang::SourceRange Use);
  bool describeArrayType(const clang::VarDecl *V, clang::SourceRange Use,
                         ArrayInfo &A,
                         const char *Role = "the stencil array");
  bool parseInPlaceAccess(const clang::Expr *E,
                          const std::vector<const clang::Expr *> &Indices,
                          Access &A);
  bool checkPlaneIndices();

  // Two arrays in turn (ExtractTurns.cpp).
  bool parseTurnAccess(const clang::Expr *E, const clang::VarDecl *V,
                       const std::vector<const clang::Expr *> &Indices,
                       Access &A, bool IsWrite);
  bool describePlaneArray(const clang::VarDecl *V, clang::SourceRange Use,
                          unsigned Plane,
                          const std::vector<AffineExpr> *FlatExtents);
  bool parseSecondNest();
  bool sameLoops(const std::vector<const clang::ForStmt *> &Loops,
                 const std::vector<Loop> &Second, bool Copy);
  bool sameUpdate(const Expr &First, const std::vector<Access> &FirstReads,
                  const std::vector<CoefAccess> &FirstCoefs,
                  const Expr &Second, const std::vector<Access> &SecondReads);
  bool finishTwoArrays();
  /// Spatial loops nested in another order than the subscripts of the
  /// write ('for j for i: A[(t + 1) % 2][i][j]') are put into the array's
  /// order (S.SpaceAsWritten keeps the source's): the cells of one step are
  /// independent, so the order of their loops is free.
  void loopsInArrayOrder();
  /// Plane arrays that declare no row count (pointers to rows, flat
  /// pointers): the GPU copies the rows their accesses reach, from 0 to
  /// the last row the loop writes plus the reach above it; each first
  /// index must be 'i + c'. False with a diagnostic when one is not.
  bool copyRowsReached();

  // Several fields updated in one time step (ExtractFields.cpp).
  bool isSeveralFields(const std::vector<const clang::Stmt *> &Body);
  /// The time loop's statements, blocks of pointer copies (a SWAP macro's
  /// braces or 'do { ... } while (0)') opened up.
  std::vector<const clang::Stmt *>
  timeStepStatements(const clang::CompoundStmt *CS);
  /// Reads FieldBody's nests into S.Fields and S.FieldStatements.
  bool parseFields();
  bool parseFieldNest(const clang::Stmt *St, unsigned Nest);
  void gridRows();
  /// The rows of Field (an index into S.Fields) its accesses reach, for a
  /// field whose first extent is not declared.
  void fieldRows(size_t Field);
  /// Sets A's plane when its field has no plane index (swapped pointers,
  /// Writes: the pointer the step writes; or one plane updated in place).
  void unwrittenPlane(Access &A, bool Swapped, bool Writes) const;
  bool parseFieldStatement(const clang::Stmt *St, unsigned Nest,
                           const std::vector<Loop> &Loops);
  bool parseFieldAccess(const clang::Expr *E, const clang::VarDecl *V,
                        const std::vector<const clang::Expr *> &Indices,
                        Access &A);

  // A pointer swap after the loop nest (ExtractSwap.cpp).
  /// Two pointers swapped through Temp, or (Third set) three rotated:
  /// 'tmp = First; First = Second; Second = Third; Third = tmp;'.
  struct Swap {
    const clang::VarDecl *First = nullptr, *Second = nullptr, *Temp = nullptr;
    const clang::VarDecl *Third = nullptr;
    bool TempDeclaredInLoop = false;
  };
  bool matchSwap(llvm::ArrayRef<const clang::Stmt *> Sts, Swap &Out);
  bool recognizeSwap(const std::vector<const clang::Stmt *> &Body);
  bool finishPointerSwap();
  /// Three pointers rotated: every one of them described as a plane array
  /// (one the nest does not read takes its declaration).
  bool finishRotation();
  /// 1D: the stencil as 2D with one row (Extract.cpp).
  bool liftOneDimension();

  // Flat pointers indexed 'out[i * m + j]' (ExtractFlat.cpp).
  bool isFlatPointer(const clang::VarDecl *V);
  /// Splits Index into one affine subscript per loop of Dims (outermost
  /// first; the stencil's spatial loops, or a field statement's) and the
  /// row lengths it multiplies by (Extents[0] unused); false (reported)
  /// when it has another form.
  bool splitFlatIndex(const clang::VarDecl *V, const clang::Expr *Index,
                      const std::vector<Loop> &Dims,
                      std::vector<AffineExpr> &Space,
                      std::vector<AffineExpr> &Extents);

  // Coefficient arrays (ExtractCoef.cpp).
  /// Records in StencilVars every variable the region assigns (an array
  /// element's base or a pointer) or copies into a pointer (a swap).
  void collectStencilVars(const clang::Stmt *Region);
  /// A read of V, which the region never assigns: a coefficient read.
  std::optional<Expr> coefRead(const clang::Expr *E, const clang::VarDecl *V,
                               const std::vector<const clang::Expr *> &Indices);

  /// Conditions of the ifs around a statement, each with whether it is
  /// negated (the else branch).
  using CondList = std::vector<std::pair<const clang::Expr *, bool>>;

  // User functions the update calls, inlined (ExtractInline.cpp). A
  // parameter of a call being read stands for its argument, read where the
  // call stands: in the caller's LocalPos and with the caller's calls open.
  struct ParamBinding {
    const clang::Expr *Arg;
    unsigned CallerPos;
    std::vector<const clang::FunctionDecl *> CallerCalls;
  };
  /// What enterCall replaced, for leaveCall to put back.
  struct CallFrame {
    std::vector<std::pair<const clang::ParmVarDecl *,
                          std::optional<ParamBinding>>> Saved;
    unsigned SavedPos = 0;
  };
  std::map<const clang::ParmVarDecl *, ParamBinding> ParamArgs;
  std::vector<const clang::FunctionDecl *> OpenCalls; // being inlined now
  /// A return of a function being inlined: 'if (c) return v;' (Conds
  /// set; Pos where it stands among the body's locals) or the last one.
  struct Return {
    unsigned Pos;
    CondList Conds;
    const clang::Expr *Value;
  };
  /// The returns of each function whose body was read, in program order.
  std::map<const clang::FunctionDecl *, std::vector<Return>> BodiesRead;
  /// Appends to Out the returns St makes ('if (c) return a; [else return
  /// b;]', braces around them) under Conds; false when St is another
  /// statement.
  bool collectReturns(const clang::Stmt *St, unsigned Pos,
                      const CondList &Conds, std::vector<Return> &Out);
  /// The returns of the user function Call calls, its parameters bound to
  /// Call's arguments and its locals recorded (LocalTemps), or nullptr
  /// after reporting why it cannot be inlined. Integer: the call is in an
  /// index or bound, where the body must be one return of an integer. A
  /// non-null result is paired with leaveCall(Frame).
  const std::vector<Return> *enterCall(const clang::CallExpr *Call,
                                       CallFrame &Frame, bool Integer);
  void leaveCall(CallFrame &Frame);
  /// Read (an evaluation of an expression) of the one return of Call, an
  /// integer function being inlined, inside its frame: std::nullopt where
  /// Call cannot be inlined (enterCall reported why).
  template <typename F>
  auto readReturn(const clang::CallExpr *Call, F Read)
      -> std::optional<decltype(Read(std::declval<const clang::Expr *>()))> {
    CallFrame Frame;
    const std::vector<Return> *Returns = enterCall(Call, Frame, true);
    if (!Returns)
      return std::nullopt;
    auto R = Read(Returns->front().Value);
    leaveCall(Frame);
    return R;
  }
  /// The value of an int local E names (IntLocals), or nullptr.
  const clang::Expr *intLocalValue(const clang::Expr *E) const {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
    const auto *V =
        Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    auto L = V ? IntLocals.find(V) : IntLocals.end();
    return L == IntLocals.end() ? nullptr : L->second;
  }
  /// The binding of E, a reference to a parameter of a call being inlined;
  /// nullptr for any other expression.
  const ParamBinding *paramBinding(const clang::Expr *E) const;
  /// E without parentheses and implicit casts, array and pointer parameters
  /// of calls being inlined replaced by their arguments ('a' -> 'A[t % 2]').
  const clang::Expr *throughParams(const clang::Expr *E) const;
  /// Runs Read (an evaluation of B's argument) where B's call stands.
  template <typename F> auto atCaller(const ParamBinding &B, F Read) {
    const unsigned Pos = std::exchange(LocalPos, B.CallerPos);
    std::vector<const clang::FunctionDecl *> Calls =
        std::exchange(OpenCalls, B.CallerCalls);
    auto R = Read();
    LocalPos = Pos;
    OpenCalls = std::move(Calls);
    return R;
  }
  /// The value of Call to a user function as C computes it: the returned
  /// expression, its parameters replaced by the arguments converted to
  /// their types, converted to the function's return type.
  std::optional<Expr> inlinedCall(const clang::CallExpr *Call);
  /// What the returns from Returns[First] on give, as type T.
  std::optional<Expr> returnedValue(const std::vector<Return> &Returns,
                                    size_t First, ScalarType T);
  /// The value of parameter P read at Use: its argument converted to P's
  /// type.
  std::optional<Expr> paramValue(const clang::ParmVarDecl *P,
                                 const ParamBinding &B, clang::SourceRange Use);
  /// E (an integer expression) names V, through the parameters of calls
  /// being inlined.
  bool namesVar(const clang::Expr *E, const clang::VarDecl *V) const;

  // The update expression (ExtractUpdate.cpp).
  /// The most nodes toExpr builds for one scop (about 100 MB).
  static constexpr size_t MaxUpdateNodes = 400000;
  size_t UpdateNodes = 0;
  bool UpdateTooLarge = false; // reported
  bool parseAssignment(const clang::Stmt *Body);
  std::optional<Expr> toExpr(const clang::Expr *E);
  std::optional<Expr> scalarRef(const clang::DeclRefExpr *Ref);
  std::optional<Expr> callExpr(const clang::CallExpr *Call);
  std::string spelling(clang::SourceRange R);

  bool isBefore(clang::SourceLocation A, clang::SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A),
                                        SM.getExpansionLoc(B));
  }
  /// Records V as the variable named Name in the scop; false after
  /// reporting, at Use, a different variable of the same name.
  bool claimName(const std::string &Name, const clang::VarDecl *V,
                 clang::SourceRange Use) {
    auto [Known, Inserted] = NamedVars.emplace(Name, V);
    if (Inserted || Known->second == V)
      return true;
    D.error(Reject::UnsupportedExpr, Use,
            "two different variables are named '" + Name +
                "' in the scop; rename one of them");
    return false;
  }
  void addParam(const std::string &Name) {
    for (const std::string &P : S.Params)
      if (P == Name)
        return;
    S.Params.push_back(Name);
  }

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  Diagnoser &D;
  const std::vector<SourceSession::Pragma> &Pragmas;
  Stencil S; // filled as the parts are read
  // The loops' iterators, the names of the variables read so far (two
  // variables may not share one), the stencil array once seen, and each
  // scalar's index in S.Scalars.
  std::map<const clang::VarDecl *, std::string> Iterators;
  std::map<std::string, const clang::VarDecl *> NamedVars;
  const clang::VarDecl *ArrayVar = nullptr;
  std::map<const clang::VarDecl *, unsigned> ScalarIndex;
  // Local scalars of the innermost loop body and their values, in program
  // order: a read of one is its value at that point (its initializer, or
  // an assignment 'acc = e' or 'acc += e' to it), converted to its type.
  // Pos numbers the definitions of the body; converting one at Pos sees
  // the definitions before it, the assignment (LocalPos ~0u) all of them.
  struct LocalDef {
    unsigned Pos;
    const clang::Expr *Value; // an initializer or the assignment operator
    bool Assignment;          // Value is 'acc = e' or 'acc op= e'
    /// Iterators of the unrolled loops around an assignment ('for (int r
    /// = 1; r <= 3; r++) acc += ...'), at this copy's values.
    std::map<const clang::VarDecl *, int64_t> Bound;
    /// The conditions of the ifs around an assignment ('if (x > 1) x =
    /// 1;'), each with whether it is negated (an else branch): where they
    /// do not all hold the local keeps its value.
    CondList Conds = {};
  };
  std::map<const clang::VarDecl *, std::vector<LocalDef>> LocalTemps;
  /// Int locals with a value that is never changed: those of the time
  /// step before its loop nest ('int cur = t % 2, nxt = 1 - cur;'), of the
  /// innermost loop's body and of inlined functions ('int c = i * m + j;').
  /// A plane index, subscript or value that names one is its initializer.
  std::map<const clang::VarDecl *, const clang::Expr *> IntLocals;
  unsigned LocalPos = ~0u;
  /// The unrolled loops' iterators while a definition converts: reads of
  /// them are these constants.
  std::map<const clang::VarDecl *, int64_t> BoundConstants;
  /// 'for (int r = lo; r <= hi; r++)' (also '<', '++r', 'r += s') with
  /// integer constants lo, hi and s > 0 and r declared there: r and its
  /// values.
  /// Up to 64 iterations, since an unrolled loop is written out that many
  /// times.
  bool constantLoop(const clang::ForStmt *F, const clang::VarDecl *&Var,
                    std::vector<int64_t> &Values);
  /// Appends the definitions St makes: a local assignment, braces around
  /// some, or a loop with constant bounds around them (unrolled, Bound
  /// extended by its iterator). False when St is none of these.
  bool unrollLocalUpdates(const clang::Stmt *St,
                          const std::map<const clang::VarDecl *, int64_t> &Bound,
                          unsigned &Pos, const CondList &Conds = {});
  /// Records one statement of a body's locals (a declaration or
  /// unrollLocalUpdates); false when St is neither.
  bool collectLocal(const clang::Stmt *St, unsigned &Pos);
  /// Conds as one truth value ('(c1) && !(c2)'), read where LocalPos
  /// stands; nullopt after an error.
  std::optional<Expr> conditionValue(const CondList &Conds);
  /// The value of local V where LocalPos stands, as C computes it; an
  /// error at Use when V is not set before.
  std::optional<Expr> localValue(const clang::VarDecl *V,
                                 clang::SourceRange Use);
  /// Records the locals and their definitions made by Body[0 .. End)
  /// (isLocalDecl declarations, local assignments and unrolled loops around
  /// them, unrollLocalUpdates) and returns End, where the first other
  /// statement is.
  size_t collectLocals(const std::vector<const clang::Stmt *> &Body);
  // Reads made while an initializer stands in for a local (their indices
  // in S.Reads), and how deep such stand-ins are nested now.
  std::set<size_t> LocalTempReads;
  unsigned InLocalTemp = 0;
  // Variables the region writes (collectStencilVars), and each coefficient
  // array's index in S.CoefArrays.
  std::set<const clang::VarDecl *> StencilVars;
  std::map<const clang::VarDecl *, unsigned> CoefIndex;
  // Two arrays in turn: the time loop's second loop nest, the statement
  // being read (0 or 1), and the variables of plane 0 (read by statement
  // 0) and plane 1 (written by it).
  const clang::Stmt *SecondNest = nullptr;
  unsigned StatementIndex = 0;
  const clang::VarDecl *PlaneVars[3] = {nullptr, nullptr, nullptr};
  Swap PointerSwap; // the swap after the nest (PointerSwap form)
  // Several fields: the time loop's statements and each field's index in
  // S.Fields.
  std::vector<const clang::Stmt *> FieldBody;
  std::map<const clang::VarDecl *, unsigned> FieldIndex;
  /// Several fields with pointer swaps after the nests: each swapped
  /// pointer -> the pointer the steps read (the field's key in FieldIndex)
  /// and whether it is the one they write.
  struct FieldSwap {
    const clang::VarDecl *In = nullptr, *Out = nullptr;
    const clang::VarDecl *Temp = nullptr;
    bool TempDeclaredInLoop = false;
    unsigned Order = 0; // its place among the step's swaps
  };
  std::map<const clang::VarDecl *, FieldSwap> FieldSwapOf;
  /// The swaps from statement First of FieldBody on, one per field.
  bool parseFieldSwaps(size_t First);
};

/// St is 'Dst = Src;' or 'T Dst = Src;' between pointer variables
/// (Declares: the second form). ExtractSwap.cpp.
bool pointerCopy(const clang::Stmt *St, const clang::VarDecl *&Dst,
                 const clang::VarDecl *&Src, bool &Declares);

/// 'float lap = <expr>;' or 'float acc;' (several declarators allowed):
/// local float or double scalars, values optional, declared in a loop
/// body. Extract.cpp.
bool isLocalDecl(const clang::Stmt *St);
/// 'int cur = t % 2, c = i * m + j;': local integers, each with a value.
/// Extract.cpp.
bool planeLocals(const clang::Stmt *St);
/// St without the OpenMP loop directives around it ('#pragma omp parallel
/// for', 'omp simd', ...: with -fopenmp clang wraps the loop they precede
/// in a directive statement), which do not change what one step computes.
const clang::Stmt *withoutOmpLoopDirectives(const clang::Stmt *St);

} // namespace frontend
} // namespace an5d

#endif
