//===- ExtractCoef.cpp - Read-only coefficient arrays ---------------------===//
//
// An array the region reads and never writes is a coefficient array: a
// variable coefficient of the update (c[i][j] * A[t % 2][i][j], w[j]). Its
// subscripts are spatial iterators plus constants, so that every cell reads
// it at a fixed offset from itself; the device keeps a read-only copy.
//
//===----------------------------------------------------------------------===//
#include "Extractor.h"

using namespace an5d;
using namespace an5d::frontend;
using clang::dyn_cast;
using clang::isa;

namespace {

/// The variable an lvalue names: the base of an element access
/// ('A[..][..]', '*p') or the variable itself.
const clang::VarDecl *assignedVar(const clang::Expr *E) {
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Sub = dyn_cast<clang::ArraySubscriptExpr>(E)) {
      E = Sub->getBase();
      continue;
    }
    if (const auto *U = dyn_cast<clang::UnaryOperator>(E))
      if (U->getOpcode() == clang::UO_Deref) {
        E = U->getSubExpr();
        continue;
      }
    break;
  }
  const auto *Ref = dyn_cast<clang::DeclRefExpr>(E);
  return Ref ? dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
}

/// True when E multiplies two operands that are not constants: a flat
/// index 'i * m + j'.
bool multipliesVariables(const clang::Expr *E, clang::ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<clang::BinaryOperator>(E)) {
    if (B->getOpcode() == clang::BO_Mul &&
        !B->getLHS()->isIntegerConstantExpr(Ctx) &&
        !B->getRHS()->isIntegerConstantExpr(Ctx))
      return true;
    return multipliesVariables(B->getLHS(), Ctx) ||
           multipliesVariables(B->getRHS(), Ctx);
  }
  return false;
}

/// E reads Var and selects with '%' or '&' somewhere: a plane index
/// ('B[t % 2]'), not an affine subscript.
bool selectsPlane(const clang::Stmt *E, const clang::VarDecl *Var,
                  bool Under = false) {
  if (!E || !Var)
    return false;
  if (const auto *B = dyn_cast<clang::BinaryOperator>(E))
    Under = Under || B->getOpcode() == clang::BO_Rem ||
            B->getOpcode() == clang::BO_And;
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(E))
    return Under && Ref->getDecl() == Var;
  for (const clang::Stmt *Child : E->children())
    if (selectsPlane(Child, Var, Under))
      return true;
  return false;
}

} // namespace

void Extractor::collectStencilVars(const clang::Stmt *Region) {
  Region = withoutOmpLoopDirectives(Region);
  if (!Region)
    return;
  auto pointerCopy = [&](const clang::Expr *From) {
    if (const clang::VarDecl *V = assignedVar(From))
      if (V->getType()->isPointerType() || V->getType()->isArrayType())
        StencilVars.insert(V);
  };
  if (const auto *B = dyn_cast<clang::BinaryOperator>(Region)) {
    if (B->isAssignmentOp()) {
      if (const clang::VarDecl *V = assignedVar(B->getLHS())) {
        StencilVars.insert(V);
        // 'in = out': both pointers of a swap hold the planes ('A[i] =
        // c[i]' assigns an element and copies no pointer).
        if (V->getType()->isPointerType() &&
            isa<clang::DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
          pointerCopy(B->getRHS());
      }
    }
  } else if (const auto *U = dyn_cast<clang::UnaryOperator>(Region)) {
    if (U->isIncrementDecrementOp())
      if (const clang::VarDecl *V = assignedVar(U->getSubExpr()))
        StencilVars.insert(V);
  } else if (const auto *DS = dyn_cast<clang::DeclStmt>(Region)) {
    // 'float *tmp = in;' inside the loop.
    for (const clang::Decl *Dc : DS->decls())
      if (const auto *V = dyn_cast<clang::VarDecl>(Dc))
        if (V->getType()->isPointerType() && V->getInit()) {
          StencilVars.insert(V);
          pointerCopy(V->getInit());
        }
  }
  for (const clang::Stmt *Child : Region->children())
    collectStencilVars(Child);
}

std::optional<int64_t> Extractor::boundValue(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (std::optional<int64_t> C = constantValue(E))
    return C;
  if (const ParamBinding *B = paramBinding(E)) {
    const ParamBinding Arg = *B;
    return atCaller(Arg, [&] { return boundValue(Arg.Arg); });
  }
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(E)) {
    if (const clang::Expr *Value = intLocalValue(Ref))
      return boundValue(Value);
    auto It = BoundConstants.find(dyn_cast<clang::VarDecl>(Ref->getDecl()));
    if (It != BoundConstants.end())
      return It->second;
    return std::nullopt;
  }
  if (const auto *U = dyn_cast<clang::UnaryOperator>(E))
    if (U->getOpcode() == clang::UO_Minus)
      if (std::optional<int64_t> X = boundValue(U->getSubExpr()))
        return -*X;
  if (const auto *B = dyn_cast<clang::BinaryOperator>(E)) {
    std::optional<int64_t> L = boundValue(B->getLHS()),
                           R = boundValue(B->getRHS());
    if (!L || !R)
      return std::nullopt;
    switch (B->getOpcode()) {
    case clang::BO_Add: return *L + *R;
    case clang::BO_Sub: return *L - *R;
    case clang::BO_Mul: return *L * *R;
    default: return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<Expr>
Extractor::constantElement(const clang::VarDecl *V,
                           const std::vector<const clang::Expr *> &Indices,
                           clang::SourceRange Use) {
  // A const array with its values in the program ('static const float
  // c[4] = {0.4f, ...}') read at constant subscripts (an unrolled loop's
  // iterator included): the element's value, a constant.
  const clang::QualType T = V->getType();
  if (!T.isConstQualified() && !(T->isArrayType() &&
                                 Ctx.getAsArrayType(T)
                                     ->getElementType()
                                     .isConstQualified()))
    return std::nullopt;
  const auto *Init =
      llvm::dyn_cast_or_null<clang::InitListExpr>(V->getAnyInitializer());
  if (!Init || !isa<clang::ConstantArrayType>(Ctx.getAsArrayType(T)))
    return std::nullopt;
  const clang::Expr *Element = Init;
  for (const clang::Expr *I : Indices) {
    const auto *List = dyn_cast<clang::InitListExpr>(Element);
    std::optional<int64_t> K = boundValue(I);
    if (!List || !K || *K < 0)
      return std::nullopt;
    if (*K >= (int64_t)List->getNumInits()) {
      // Elements without an initializer are zero.
      const auto *CAT = Ctx.getAsConstantArrayType(List->getType());
      if (!CAT || *K >= (int64_t)CAT->getSize().getZExtValue())
        return std::nullopt;
      Element = nullptr;
      break;
    }
    Element = List->getInit(*K);
  }
  if (Element && isa<clang::InitListExpr>(Element))
    return std::nullopt;
  Expr Value;
  if (Element) {
    std::optional<Expr> V2 = toExpr(Element);
    if (!V2 || V2->K != Expr::Literal)
      return std::nullopt;
    Value = std::move(*V2);
  } else {
    Value.K = Expr::Literal;
    Value.Type = ScalarType::Int;
    Value.Text = "0";
  }
  Value.Range = Use;
  // As the element's type: '(float)(0.1)' is what C reads from a float
  // array initialized with 0.1.
  const ScalarType ElemType = scalarTypeOf(Ctx.getBaseElementType(T));
  if (Value.Type == ElemType)
    return Value;
  Expr P;
  P.K = Expr::Paren;
  P.Type = Value.Type;
  P.Range = Use;
  P.Args.push_back(std::move(Value));
  Expr E;
  E.K = Expr::Cast;
  E.Type = ElemType;
  E.Text = scalarTypeName(E.Type);
  E.Range = Use;
  E.Args.push_back(std::move(P));
  return E;
}

std::optional<Expr>
Extractor::coefRead(const clang::Expr *E, const clang::VarDecl *V,
                    const std::vector<const clang::Expr *> &Indices) {
  if (std::optional<Expr> Constant =
          constantElement(V, Indices, E->getSourceRange()))
    return Constant;
  unsigned Index = 0;
  auto Known = CoefIndex.find(V);
  if (Known != CoefIndex.end()) {
    Index = Known->second;
  } else {
    ArrayInfo Info;
    if (!describeArrayType(V, E->getSourceRange(), Info,
                           "the coefficient array"))
      return std::nullopt;
    // 'const double *w': a pointer to elements, not to rows.
    if (Info.Form == ArrayForm::PointerToArray && Info.Extents.size() == 1)
      Info.Form = ArrayForm::FlatPointer;
    if (!claimName(Info.Name, V, E->getSourceRange()))
      return std::nullopt;
    Index = S.CoefArrays.size();
    CoefIndex.emplace(V, Index);
    S.CoefArrays.push_back(std::move(Info));
  }
  const ArrayInfo &Info = S.CoefArrays[Index];
  const std::string &Name = Info.Name;
  if (Indices.size() != Info.Extents.size()) {
    D.error(Reject::Dimensionality, E->getSourceRange(),
            "the coefficient array '" + Name + "' has " +
                std::to_string(Info.Extents.size()) +
                " dimensions and is read with " +
                std::to_string(Indices.size()) +
                " subscripts; read one element, one subscript per dimension");
    D.note(Info.DeclRange, "'" + Name + "' is declared here");
    return std::nullopt;
  }
  CoefAccess A;
  A.Array = Index;
  A.Range = E->getSourceRange();
  const clang::VarDecl *TimeVar = nullptr;
  for (const auto &[Var, Iter] : Iterators)
    if (Iter == S.Time.Iter)
      TimeVar = Var;
  for (const clang::Expr *I : Indices) {
    if (selectsPlane(I, TimeVar)) {
      D.error(Reject::CoefficientIndex, I->getSourceRange(),
              "reads '" + Name + "', which the scop does not write, at a "
              "plane of the time step; an array the scop only reads is a "
              "coefficient array, read at loop iterators plus constants (a "
              "field with planes is one the time step writes)");
      D.note(Info.DeclRange, "'" + Name + "' is declared here");
      return std::nullopt;
    }
    if (Indices.size() == 1 && S.Space.size() > 1 &&
        multipliesVariables(I, Ctx)) {
      D.error(Reject::CoefficientIndex, I->getSourceRange(),
              "the coefficient array '" + Name + "' is read with one flat "
              "subscript; an5dc reads coefficient arrays with one subscript "
              "per dimension: declare it as a pointer to rows, as "
              "'const " + elemTypeName(Info.Elem) + " (*" + Name +
                  ")[m]', and read '" + Name + "[i][j]'");
      return std::nullopt;
    }
    std::optional<AffineExpr> X = toAffine(I);
    if (!X)
      return std::nullopt;
    CoefAccess::Subscript Sub;
    Sub.Offset = X->Constant;
    for (const auto &[Symbol, Coeff] : X->Coeffs) {
      bool Spatial = false;
      for (const Loop &L : S.Space)
        Spatial = Spatial || L.Iter == Symbol;
      bool Time = Symbol == S.Time.Iter;
      if ((Spatial || Time) && Coeff == 1 && Sub.Iter.empty()) {
        Sub.Iter = Symbol;
        continue;
      }
      D.error(Reject::CoefficientIndex, I->getSourceRange(),
              "the coefficient array '" + Name + "' is read at '" + X->str() +
                  "'; each subscript of a coefficient array must be a "
                  "loop iterator plus a constant, as '" +
                  S.Space.back().Iter + " + 1' or '" + S.Time.Iter +
                  "', or a constant" +
                  (!Spatial && !Time ? "; '" + Symbol +
                                           "' is not a loop iterator"
                                     : std::string()));
      return std::nullopt;
    }
    A.Index.push_back(std::move(Sub));
  }
  // An element per time step for every cell (src[t]), or per cell for every
  // step (c[i][j]); one that changes with both is a field of its own.
  bool Time = false, Spatial = false;
  for (const CoefAccess::Subscript &X : A.Index) {
    Time = Time || X.Iter == S.Time.Iter;
    Spatial = Spatial || (!X.Iter.empty() && X.Iter != S.Time.Iter);
  }
  if (Time && Spatial) {
    D.error(Reject::CoefficientIndex, E->getSourceRange(),
            "reads '" + Name + "', which the scop does not write, at both the "
            "time step and a cell; an array the scop only reads is read at "
            "the cell ('" + Name + "[i][j]') or at the step ('" + Name +
                "[t]'); one that changes with both is a field, which the "
                "time step writes");
    D.note(Info.DeclRange, "'" + Name + "' is declared here");
    return std::nullopt;
  }
  A.TimeIndexed = Time;
  Expr R;
  R.K = Expr::CoefRead;
  R.Type = Info.Elem == ElemType::Float ? ScalarType::Float
                                        : ScalarType::Double;
  R.Range = A.Range;
  R.ReadIndex = S.CoefReads.size();
  S.CoefReads.push_back(std::move(A));
  return R;
}
