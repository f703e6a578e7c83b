//===- ExtractAccess.cpp - Affine expressions and the stencil array -------===//
//
// Bounds, indices and extents as affine expressions over iterators and
// parameters; the accesses of the stencil array and how it is declared.
//
//===----------------------------------------------------------------------===//
#include "Extractor.h"

#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace an5d;
using namespace an5d::frontend;
using clang::dyn_cast;
using clang::isa;
using llvm::dyn_cast_or_null;

namespace {

/// Affine arithmetic on operands within 32 bits cannot overflow int64.
bool fitsInt32(const AffineExpr &E) {
  auto fits = [](int64_t V) { return V >= INT32_MIN && V <= INT32_MAX; };
  if (!fits(E.Constant))
    return false;
  for (const auto &[Name, C] : E.Coeffs)
    if (!fits(C))
      return false;
  return true;
}

} // namespace

// --- Affine expressions ----------------------------------------------------

std::optional<int64_t> Extractor::constantValue(const clang::Expr *E) {
  if (E->isValueDependent() || !E->getType()->isIntegerType())
    return std::nullopt;
  clang::Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  // Keep far from int64 overflow in the affine arithmetic that follows.
  if (V.isSigned() ? V.isSignedIntN(62) : V.isIntN(61))
    return V.getExtValue();
  return std::nullopt;
}

std::optional<AffineExpr> Extractor::toAffine(const clang::Expr *E) {
  E = E->IgnoreParens();
  if (std::optional<int64_t> C = constantValue(E))
    return AffineExpr::constant(*C);
  auto nonAffine = [&](const std::string &Why) -> std::optional<AffineExpr> {
    D.error(Reject::NonAffine, E->getSourceRange(),
            "expression is not affine: " + Why +
                "; indices and bounds must be sums of integer constants times "
                "loop iterators and parameters");
    return std::nullopt;
  };
  if (const auto *Cast = dyn_cast<clang::CastExpr>(E)) {
    if (Cast->getType()->isIntegerType() &&
        Cast->getSubExpr()->getType()->isIntegerType())
      return toAffine(Cast->getSubExpr());
    return nonAffine("it converts a non-integer value");
  }
  if (const auto *Call = dyn_cast<clang::CallExpr>(E)) {
    std::optional<std::optional<AffineExpr>> Read =
        readReturn(Call, [&](const clang::Expr *R) { return toAffine(R); });
    if (!Read)
      return std::nullopt;
    std::optional<AffineExpr> A = *Read;
    if (!A)
      D.note(Call->getSourceRange(), "in the call of '" +
                                         Call->getDirectCallee()->getNameAsString() +
                                         "' here");
    return A;
  }
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!V || !V->getType()->isIntegerType())
      return nonAffine("'" + Ref->getNameInfo().getAsString() +
                       "' is not an integer variable");
    // A parameter of a function being inlined: its argument.
    if (const ParamBinding *B = paramBinding(Ref)) {
      const ParamBinding Arg = *B;
      if (!Arg.Arg->IgnoreParenImpCasts()->getType()->isIntegerType())
        return nonAffine("'" + Ref->getNameInfo().getAsString() +
                         "' is passed a value that is not an integer");
      return atCaller(Arg, [&] { return toAffine(Arg.Arg); });
    }
    // An int local: its value.
    if (const clang::Expr *Value = intLocalValue(Ref))
      return toAffine(Value);
    // An unrolled loop's iterator (unrollLocalUpdates): a constant here.
    if (auto B = BoundConstants.find(V); B != BoundConstants.end())
      return AffineExpr::constant(B->second);
    auto It = Iterators.find(V);
    if (It != Iterators.end())
      return AffineExpr::symbol(It->second);
    if (V->getType().isConstQualified() && V->getInit())
      if (std::optional<int64_t> C = constantValue(V->getInit()))
        return AffineExpr::constant(*C);
    std::string Name = V->getName().str();
    auto [Known, Inserted] = NamedVars.emplace(Name, V);
    if (!Inserted && Known->second != V)
      return nonAffine("two different variables are named '" + Name + "'");
    addParam(Name);
    return AffineExpr::symbol(Name);
  }
  if (const auto *U = dyn_cast<clang::UnaryOperator>(E)) {
    if (U->getOpcode() == clang::UO_Minus || U->getOpcode() == clang::UO_Plus) {
      std::optional<AffineExpr> A = toAffine(U->getSubExpr());
      if (A && U->getOpcode() == clang::UO_Minus)
        return A->scaled(-1);
      return A;
    }
    return nonAffine("unsupported operator '" +
                     clang::UnaryOperator::getOpcodeStr(U->getOpcode()).str() +
                     "'");
  }
  if (const auto *B = dyn_cast<clang::BinaryOperator>(E)) {
    clang::BinaryOperatorKind Op = B->getOpcode();
    if (Op == clang::BO_Add || Op == clang::BO_Sub || Op == clang::BO_Mul) {
      std::optional<AffineExpr> L = toAffine(B->getLHS());
      if (!L)
        return std::nullopt;
      std::optional<AffineExpr> R = toAffine(B->getRHS());
      if (!R)
        return std::nullopt;
      if (!fitsInt32(*L) || !fitsInt32(*R))
        return nonAffine("its constants exceed 32 bits");
      if (Op == clang::BO_Add)
        return *L + *R;
      if (Op == clang::BO_Sub)
        return *L - *R;
      if (L->isConstant())
        return R->scaled(L->Constant);
      if (R->isConstant())
        return L->scaled(R->Constant);
      return nonAffine("it multiplies two variables");
    }
    if (Op == clang::BO_Rem && !constantValue(B->getRHS())) {
      // '(j + 1) % m' wraps around: a periodic boundary, not an offset.
      std::optional<AffineExpr> L = toAffine(B->getLHS());
      if (!L)
        return std::nullopt;
      for (const auto &[Var, Iter] : Iterators)
        if (Iter != S.Time.Iter && L->coeff(Iter)) {
          std::string Text = clang::Lexer::getSourceText(
                                 clang::CharSourceRange::getTokenRange(
                                     E->getSourceRange()),
                                 SM, Ctx.getLangOpts())
                                 .str();
          D.error(Reject::NonAffine, E->getSourceRange(),
                  "'" + Text + "' wraps around: periodic boundaries are not "
                  "supported; an5dc keeps the boundary cells fixed and reads "
                  "at constant offsets from the cell ('" + Iter + " + 1', '" +
                  Iter + " - 1'), with the loops leaving the boundary out");
          return std::nullopt;
        }
    }
    return nonAffine("operator '" + B->getOpcodeStr().str() +
                     "' on a variable");
  }
  return nonAffine("unsupported construct");
}

// --- Accesses and the array ------------------------------------------------

bool Extractor::parsePlaneIndex(const clang::Expr *E, Access &A) {
  const clang::Expr *Bare = E->IgnoreParenImpCasts();
  // A function of the program selecting the plane ('A[next(t)]'): what
  // it returns.
  if (const auto *Call = dyn_cast<clang::CallExpr>(Bare))
    return readReturn(Call, [&](const clang::Expr *R) {
             return parsePlaneIndex(R, A);
           }).value_or(false);
  // An int parameter of a function being inlined: its argument.
  if (const ParamBinding *B = paramBinding(Bare)) {
    const ParamBinding Arg = *B;
    return atCaller(Arg, [&] { return parsePlaneIndex(Arg.Arg, A); });
  }
  // An int local of the time step ('int nxt = 1 - t % 2;'): its value.
  if (const clang::Expr *Value = intLocalValue(Bare))
    return parsePlaneIndex(Value, A);
  // The other plane of a double buffer: '1 - t % 2', '(t & 1) ^ 1' are
  // '(t + 1) % 2' and '(t + 1) & 1' wherever the plane t selects is in
  // the array (t % 2 not negative).
  if (const auto *Other = dyn_cast<clang::BinaryOperator>(Bare)) {
    const clang::Expr *Plane = nullptr;
    if (Other->getOpcode() == clang::BO_Sub &&
        constantValue(Other->getLHS()) == std::optional<int64_t>(1))
      Plane = Other->getRHS();
    else if (Other->getOpcode() == clang::BO_Xor &&
             constantValue(Other->getRHS()) == std::optional<int64_t>(1))
      Plane = Other->getLHS();
    else if (Other->getOpcode() == clang::BO_Xor &&
             constantValue(Other->getLHS()) == std::optional<int64_t>(1))
      Plane = Other->getRHS();
    Access Inner;
    if (Plane && parsePlaneIndex(Plane, Inner)) {
      if (Inner.Modulus != 2) {
        D.error(Reject::NotDoubleBuffered, E->getSourceRange(),
                "'1 - p' and 'p ^ 1' select the other plane of two; with "
                "three planes write '(t + 2) % 3'");
        return false;
      }
      A.TimeBase = Inner.TimeBase + AffineExpr::constant(1);
      A.Modulus = 2;
      A.SignedRemainder = Inner.SignedRemainder;
      return true;
    }
    if (Plane)
      return false;
  }
  const auto *B = dyn_cast<clang::BinaryOperator>(Bare);
  if (B && (B->getOpcode() == clang::BO_Rem || B->getOpcode() == clang::BO_And)) {
    std::optional<int64_t> M = constantValue(B->getRHS());
    bool IsRem = B->getOpcode() == clang::BO_Rem;
    if (M && ((IsRem && *M == 2) || (!IsRem && *M == 1))) {
      std::optional<AffineExpr> Base = toAffine(B->getLHS());
      if (!Base)
        return false;
      A.TimeBase = *Base;
      A.Modulus = 2;
      A.SignedRemainder = IsRem;
      return true;
    }
    // Three planes in turn: a scheme of second order in time (the wave
    // equation), A[(t + 2) % 3] = f(A[(t + 1) % 3], A[t % 3]).
    if (M && IsRem && *M == 3) {
      std::optional<AffineExpr> Base = toAffine(B->getLHS());
      if (!Base)
        return false;
      A.TimeBase = *Base;
      A.Modulus = 3;
      A.SignedRemainder = true;
      return true;
    }
    if (M && IsRem && *M > 3) {
      D.error(Reject::NotDoubleBuffered, E->getSourceRange(),
              "the plane index cycles through " + std::to_string(*M) +
                  " planes; an5dc handles two time levels ('(t + 1) % 2' "
                  "for the write, 't % 2' for the reads) and three ('(t + 2) "
                  "% 3' for the write, '(t + 1) % 3' and 't % 3' for the "
                  "reads)");
      return false;
    }
  }
  D.error(Reject::NotDoubleBuffered, E->getSourceRange(),
          "the first index must select a plane of the double buffer, as "
          "'(t + 1) % 2' for the write and 't % 2' for the reads ('& 1' works "
          "too)");
  return false;
}

bool Extractor::describeArray(const clang::VarDecl *V, clang::SourceRange Use) {
  ArrayVar = V;
  ArrayInfo &A = S.Array;
  if (!describeArrayType(V, Use, A))
    return false;
  S.Elem = A.Elem;
  // Written with one subscript per spatial loop and no plane: updated in
  // place, one plane (the analysis then locates the read of this step's
  // values, or refuses the form).
  if (A.Extents.size() == S.Space.size() && A.Extents.size() > 0) {
    S.Form = StencilForm::InPlace;
    A.Extents.insert(A.Extents.begin(), AffineExpr::constant(1));
    A.ExtentText.insert(A.ExtentText.begin(), "1");
    return true;
  }
  if (A.Extents.size() != 1 + S.Space.size()) {
    D.error(Reject::Dimensionality, Use,
            "'" + A.Name + "' has " + std::to_string(A.Extents.size()) +
                " dimensions; a stencil over " +
                std::to_string(S.Space.size()) +
                " spatial loops needs a plane dimension plus one per loop, "
                "e.g. 'float (*A)[n][m]' or 'float A[2][N][M]'");
    D.note(V->getSourceRange(), "'" + A.Name + "' is declared here");
    return false;
  }
  return true;
}

/// Fills A from V's declaration: name, form, extents and a float or double
/// element type (reported otherwise, at Use, naming the array by Role).
bool Extractor::describeArrayType(const clang::VarDecl *V,
                                  clang::SourceRange Use, ArrayInfo &A,
                                  const char *Role) {
  A.Name = V->getName().str();
  A.DeclRange = V->getSourceRange();
  clang::QualType T = V->getType();
  A.Form = ArrayForm::LocalOrGlobal;
  if (const auto *P = dyn_cast<clang::ParmVarDecl>(V)) {
    T = P->getOriginalType();
    A.Form = ArrayForm::ArrayParam;
  }
  if (const auto *Ptr = T->getAs<clang::PointerType>()) {
    A.Form = ArrayForm::PointerToArray;
    A.Extents.push_back(std::nullopt);
    A.ExtentText.push_back("");
    T = Ptr->getPointeeType();
  }
  while (const clang::ArrayType *AT = Ctx.getAsArrayType(T)) {
    if (const auto *CA = dyn_cast<clang::ConstantArrayType>(AT)) {
      int64_t N = CA->getSize().getSExtValue();
      A.Extents.push_back(AffineExpr::constant(N));
      A.ExtentText.push_back(std::to_string(N));
    } else if (const auto *VA = dyn_cast<clang::VariableArrayType>(AT)) {
      const clang::Expr *Size = VA->getSizeExpr();
      if (Size && !checkNestingDepth(Size, D))
        return false;
      std::optional<AffineExpr> E = Size ? toAffine(Size) : std::nullopt;
      if (!E)
        return false;
      A.Extents.push_back(E);
      // A size spelled through macros (PolyBench's 'n + PADDING') has no
      // one text in the file: the affine form names the same variables.
      bool Macro = Size->getBeginLoc().isMacroID() ||
                   Size->getEndLoc().isMacroID();
      A.ExtentText.push_back(Macro ? E->str()
                                   : spelling(Size->getSourceRange()));
    } else {
      A.Extents.push_back(std::nullopt);
      A.ExtentText.push_back("");
    }
    T = AT->getElementType();
  }
  ScalarType Elem = scalarTypeOf(T);
  // float **: rows allocated one by one, each anywhere; say what one
  // allocation would look like instead of naming 'float *' an element.
  clang::QualType Leaf = T;
  unsigned Levels = 0;
  while (const auto *Inner = Leaf->getAs<clang::PointerType>()) {
    Leaf = Inner->getPointeeType();
    ++Levels;
  }
  ScalarType Row = scalarTypeOf(Leaf);
  if (Levels > 0 && (Row == ScalarType::Float || Row == ScalarType::Double)) {
    const std::string E = Row == ScalarType::Float ? "float" : "double";
    const bool ThreeD = Levels > 1;
    D.error(Reject::ElementType, Use,
            "'" + A.Name + "' is an array of pointers to rows ('" +
                V->getType().getAsString() + "'); an5dc copies arrays of "
                "one contiguous allocation: declare it as a pointer to "
                "rows, '" + E + " (*" + A.Name + ")" +
                (ThreeD ? "[m][l]" : "[m]") + "', or a flat pointer, '" + E +
                " *" + A.Name + "' indexed '" + A.Name +
                (ThreeD ? "[(i * m + j) * l + k]'" : "[i * m + j]'"));
    D.note(V->getSourceRange(), "'" + A.Name + "' is declared here");
    return false;
  }
  if (Elem != ScalarType::Float && Elem != ScalarType::Double) {
    D.error(Reject::ElementType, Use,
            std::string(Role) + " '" + A.Name + "' has elements of type '" +
                T.getAsString() + "'; an5dc handles float and double");
    D.note(V->getSourceRange(), "'" + A.Name + "' is declared here");
    return false;
  }
  A.Elem = Elem == ScalarType::Float ? ElemType::Float : ElemType::Double;
  return true;
}

/// Parses A[plane][s0][s1]... into an Access of the stencil array.
bool Extractor::parseAccess(const clang::Expr *E, Access &A, bool IsWrite) {
  std::vector<const clang::Expr *> Indices;
  const clang::Expr *Base = E->IgnoreParens();
  while (const auto *Sub = dyn_cast<clang::ArraySubscriptExpr>(Base)) {
    Indices.insert(Indices.begin(), Sub->getIdx());
    Base = throughParams(Sub->getBase());
  }
  const auto *Ref = dyn_cast<clang::DeclRefExpr>(Base);
  const auto *V = Ref ? dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!V) {
    D.error(Reject::UnsupportedExpr, E->getSourceRange(),
            "the stencil array must be accessed through a variable, as "
            "'A[t % 2][i][j]'");
    return false;
  }
  if (S.planesAreArrays())
    return parseTurnAccess(E, V, Indices, A, IsWrite);
  if (S.Form == StencilForm::Fields)
    return parseFieldAccess(E, V, Indices, A);
  if (!ArrayVar) {
    if (!describeArray(V, E->getSourceRange()))
      return false;
  } else if (V != ArrayVar) {
    D.error(Reject::MultipleArrays, E->getSourceRange(),
            "reads array '" + V->getName().str() + "', but the stencil writes '" +
                S.Array.Name + "'; an5dc handles one double-buffered array "
                "(read A[t % 2], write A[(t + 1) % 2])");
    return false;
  }
  if (S.Form == StencilForm::InPlace)
    return parseInPlaceAccess(E, Indices, A);
  if (Indices.size() != 1 + S.Space.size()) {
    D.error(Reject::Dimensionality, E->getSourceRange(),
            "'" + S.Array.Name + "' is indexed with " +
                std::to_string(Indices.size()) + " subscripts; expected " +
                std::to_string(1 + S.Space.size()) +
                " (the plane, then one per spatial loop)");
    return false;
  }
  A.Range = E->getSourceRange();
  if (!parsePlaneIndex(Indices[0], A))
    return false;
  for (size_t I = 1; I < Indices.size(); ++I) {
    std::optional<AffineExpr> X = toAffine(Indices[I]);
    if (!X)
      return false;
    A.Space.push_back(*X);
  }
  return true;
}

/// An access of an array updated in place: every access is of the plane
/// the step writes, (t + 1) mod 1.
bool Extractor::parseInPlaceAccess(const clang::Expr *E,
                                   const std::vector<const clang::Expr *> &Indices,
                                   Access &A) {
  if (Indices.size() != S.Space.size()) {
    D.error(Reject::Dimensionality, E->getSourceRange(),
            "'" + S.Array.Name + "' is indexed with " +
                std::to_string(Indices.size()) + " subscripts; expected " +
                std::to_string(S.Space.size()) + " (one per spatial loop)");
    return false;
  }
  A.Range = E->getSourceRange();
  A.TimeBase = AffineExpr::symbol(S.Time.Iter) + AffineExpr::constant(1);
  A.Modulus = 1;
  A.SignedRemainder = false;
  for (const clang::Expr *I : Indices) {
    std::optional<AffineExpr> X = toAffine(I);
    if (!X)
      return false;
    A.Space.push_back(*X);
  }
  return true;
}

/// The plane of every access must follow the outermost (time) loop.
bool Extractor::checkPlaneIndices() {
  auto check = [&](const Access &A) {
    for (const Loop &L : S.Space)
      if (A.TimeBase.coeff(L.Iter) != 0) {
        D.error(Reject::TimeNotOutermost, A.Range,
                "the plane index uses '" + L.Iter +
                    "', a spatial loop; the loop whose iterator selects the "
                    "plane is the time loop and must be the outermost loop");
        D.note(S.Time.Range, "the outermost loop is over '" + S.Time.Iter +
                                 "'");
        return false;
      }
    AffineExpr Rest = A.TimeBase - AffineExpr::symbol(S.Time.Iter);
    if (A.TimeBase.coeff(S.Time.Iter) != 1 || !Rest.isConstant()) {
      D.error(Reject::NotDoubleBuffered, A.Range,
              "the plane index must be '(" + S.Time.Iter + " + k) % " +
                  std::to_string(std::max<int64_t>(A.Modulus, 2)) +
                  "' with a constant k");
      return false;
    }
    // Every access cycles through as many planes as the write.
    if (A.Modulus != S.Write.Modulus) {
      D.error(Reject::NotDoubleBuffered, A.Range,
              "this access selects its plane modulo " +
                  std::to_string(A.Modulus) + " but the write modulo " +
                  std::to_string(S.Write.Modulus) +
                  "; every access of '" + S.Array.Name +
                  "' must cycle through the same planes");
      D.note(S.Write.Range, "the write is here");
      return false;
    }
    return true;
  };
  if (!check(S.Write))
    return false;
  S.Planes = S.Write.Modulus == 3 ? 3 : 2;
  for (const Access &R : S.Reads)
    if (!check(R))
      return false;
  return true;
}
