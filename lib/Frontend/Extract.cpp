//===- Extract.cpp - Scop region to stencil description -------------------===//
//
// Walks the Clang AST of the scop region and builds the plain Stencil
// description. Every construct outside the accepted input language is
// reported with its source range and what would be accepted instead.
//
//===----------------------------------------------------------------------===//
#include "an5d/Frontend.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace an5d;
using clang::dyn_cast;
using clang::isa;
using llvm::dyn_cast_or_null;

namespace {

/// Pure math functions an update may call: libm names and their f/l forms.
bool isPureMathFunction(llvm::StringRef Name) {
  static const std::set<std::string> Base = {
      "sqrt",  "cbrt",  "fabs",  "exp",   "exp2",     "expm1", "log",
      "log2",  "log10", "log1p", "pow",   "sin",      "cos",   "tan",
      "asin",  "acos",  "atan",  "atan2", "sinh",     "cosh",  "tanh",
      "floor", "ceil",  "round", "trunc", "fmin",     "fmax",  "fma",
      "hypot", "erf",   "erfc",  "fmod",  "copysign", "fdim"};
  if (Base.count(Name.str()))
    return true;
  // The float and long double forms: sqrtf, sqrtl, ...
  if (!Name.empty() && (Name.back() == 'f' || Name.back() == 'l') &&
      Base.count(Name.drop_back().str()))
    return true;
  return Name == "abs" || Name == "labs";
}

ScalarType scalarTypeOf(clang::QualType T) {
  T = T.getCanonicalType();
  if (const auto *B = T->getAs<clang::BuiltinType>()) {
    switch (B->getKind()) {
    case clang::BuiltinType::Float: return ScalarType::Float;
    case clang::BuiltinType::Double: return ScalarType::Double;
    case clang::BuiltinType::LongDouble: return ScalarType::LongDouble;
    default:
      if (B->isInteger())
        return ScalarType::Int;
    }
  }
  return ScalarType::Other;
}

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

class Extractor {
public:
  Extractor(SourceSession &Session)
      : Ctx(Session.ast()), SM(Session.sources()), D(Session.diags()),
        Pragmas(Session.pragmas()) {}

  std::optional<Stencil> run();

private:
  // Region and nest structure.
  bool findRegion(clang::SourceLocation &Begin, clang::SourceLocation &End);
  const clang::FunctionDecl *enclosingFunction(clang::SourceLocation Loc);
  const clang::Stmt *regionStatement(const clang::FunctionDecl *F,
                                     clang::SourceLocation Begin,
                                     clang::SourceLocation End);
  bool collectNest(const clang::Stmt *Top,
                   std::vector<const clang::ForStmt *> &Loops,
                   const clang::Stmt *&Body);
  const clang::Stmt *singleStatement(const clang::Stmt *S, bool &Ok);
  bool parseLoop(const clang::ForStmt *F, Loop &L);
  bool parseIterator(const clang::ForStmt *F, const clang::VarDecl *&Var,
                     const clang::Expr *&Init);
  bool parseCondition(const clang::ForStmt *F, const clang::VarDecl *Var,
                      Loop &L);
  bool parseIncrement(const clang::ForStmt *F, const clang::VarDecl *Var);
  bool checkRectangular(const std::vector<const clang::ForStmt *> &Loops);

  // Affine expressions, accesses and the array.
  std::optional<AffineExpr> toAffine(const clang::Expr *E);
  std::optional<int64_t> constantValue(const clang::Expr *E);
  bool parseAccess(const clang::Expr *E, Access &A);
  bool parsePlaneIndex(const clang::Expr *E, Access &A);
  bool describeArray(const clang::VarDecl *V, clang::SourceRange Use);
  bool checkPlaneIndices();

  // The update expression.
  bool parseAssignment(const clang::Stmt *Body);
  std::optional<Expr> toExpr(const clang::Expr *E);
  std::optional<Expr> scalarRef(const clang::DeclRefExpr *Ref);
  std::optional<Expr> callExpr(const clang::CallExpr *Call);
  std::string spelling(clang::SourceRange R);

  bool isBefore(clang::SourceLocation A, clang::SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A),
                                        SM.getExpansionLoc(B));
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
  Stencil S;
  std::map<const clang::VarDecl *, std::string> Iterators;
  std::map<std::string, const clang::VarDecl *> NamedVars;
  const clang::VarDecl *ArrayVar = nullptr;
  std::map<const clang::VarDecl *, unsigned> ScalarIndex;
};

// --- Region and loop nest --------------------------------------------------

bool Extractor::findRegion(clang::SourceLocation &Begin,
                           clang::SourceLocation &End) {
  std::vector<SourceSession::Pragma> InMain;
  for (const auto &P : Pragmas)
    if (SM.isInMainFile(SM.getExpansionLoc(P.Loc)))
      InMain.push_back(P);
  if (InMain.empty()) {
    clang::SourceLocation FileStart = SM.getLocForStartOfFile(SM.getMainFileID());
    D.error(Reject::NoScop, clang::SourceRange(FileStart),
            "no '#pragma scop' region in this file; put '#pragma scop' before "
            "the stencil's time loop and '#pragma endscop' after it");
    return false;
  }
  if (InMain[0].IsEnd) {
    D.error(Reject::ScopStructure, InMain[0].Loc,
            "'#pragma endscop' without a preceding '#pragma scop'");
    return false;
  }
  if (InMain.size() < 2 || !InMain[1].IsEnd) {
    D.error(Reject::ScopStructure, InMain[0].Loc,
            "'#pragma scop' has no matching '#pragma endscop'");
    return false;
  }
  if (InMain.size() > 2) {
    D.error(Reject::ScopStructure, InMain[2].Loc,
            "only one scop region per file is supported; remove this "
            "second region's pragmas or put it in another file");
    return false;
  }
  Begin = InMain[0].Loc;
  End = InMain[1].Loc;
  return true;
}

const clang::FunctionDecl *
Extractor::enclosingFunction(clang::SourceLocation Loc) {
  for (const clang::Decl *Dcl : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *F = dyn_cast<clang::FunctionDecl>(Dcl);
    if (!F || !F->doesThisDeclarationHaveABody())
      continue;
    if (isBefore(F->getBeginLoc(), Loc) && isBefore(Loc, F->getEndLoc()))
      return F;
  }
  return nullptr;
}

/// The single statement between the pragmas: the outermost compound
/// statement with children inside the region holds it.
const clang::Stmt *Extractor::regionStatement(const clang::FunctionDecl *F,
                                              clang::SourceLocation Begin,
                                              clang::SourceLocation End) {
  std::vector<const clang::CompoundStmt *> Work = {
      dyn_cast<clang::CompoundStmt>(F->getBody())};
  while (!Work.empty()) {
    const clang::CompoundStmt *CS = Work.back();
    Work.pop_back();
    if (!CS)
      continue;
    std::vector<const clang::Stmt *> Inside;
    for (const clang::Stmt *C : CS->body()) {
      if (isa<clang::NullStmt>(C))
        continue;
      if (isBefore(Begin, C->getBeginLoc()) && isBefore(C->getEndLoc(), End))
        Inside.push_back(C);
    }
    if (Inside.size() > 1) {
      D.error(Reject::ScopStructure, Inside[1]->getSourceRange(),
              "the scop region must hold exactly one loop nest; move this "
              "statement outside '#pragma scop' ... '#pragma endscop'");
      return nullptr;
    }
    if (Inside.size() == 1)
      return Inside[0];
    // Descend into every child statement that contains the region.
    for (const clang::Stmt *C : CS->body()) {
      if (!C || !isBefore(C->getBeginLoc(), Begin) ||
          !isBefore(End, C->getEndLoc()))
        continue;
      std::vector<const clang::Stmt *> Sub = {C};
      while (!Sub.empty()) {
        const clang::Stmt *X = Sub.back();
        Sub.pop_back();
        if (!X)
          continue;
        if (const auto *Inner = dyn_cast<clang::CompoundStmt>(X))
          Work.push_back(Inner);
        else
          for (const clang::Stmt *Child : X->children())
            Sub.push_back(Child);
      }
    }
  }
  D.error(Reject::ScopStructure, Begin,
          "the scop region holds no complete statement; put '#pragma scop' "
          "and '#pragma endscop' around the whole time loop");
  return nullptr;
}

/// Looks through braces holding one statement. Ok is false after an error.
const clang::Stmt *Extractor::singleStatement(const clang::Stmt *St, bool &Ok) {
  Ok = true;
  while (const auto *CS = dyn_cast_or_null<clang::CompoundStmt>(St)) {
    std::vector<const clang::Stmt *> Body;
    for (const clang::Stmt *C : CS->body())
      if (!isa<clang::NullStmt>(C))
        Body.push_back(C);
    if (Body.empty()) {
      D.error(Reject::NotALoopNest, CS->getSourceRange(),
              "empty loop body; the innermost loop must assign the stencil "
              "array");
      Ok = false;
      return nullptr;
    }
    if (Body.size() > 1) {
      D.error(Reject::MultipleStatements, Body[1]->getSourceRange(),
              "a loop of the nest holds " + std::to_string(Body.size()) +
                  " statements; an5dc handles a single assignment "
                  "'A[(t + 1) % 2][i][j] = ...;' in perfectly nested loops");
      Ok = false;
      return nullptr;
    }
    St = Body[0];
  }
  return St;
}

bool Extractor::collectNest(const clang::Stmt *Top,
                            std::vector<const clang::ForStmt *> &Loops,
                            const clang::Stmt *&Body) {
  const clang::Stmt *Cur = Top;
  bool Ok = true;
  while (true) {
    Cur = singleStatement(Cur, Ok);
    if (!Ok)
      return false;
    const auto *F = dyn_cast<clang::ForStmt>(Cur);
    if (!F)
      break;
    Loops.push_back(F);
    Cur = F->getBody();
  }
  if (Loops.empty()) {
    D.error(Reject::NotALoopNest, Top->getSourceRange(),
            "the scop region must hold a 'for' loop nest: a time loop around "
            "2 or 3 spatial loops");
    return false;
  }
  if (Loops.size() != 3 && Loops.size() != 4) {
    D.error(Reject::Dimensionality, Loops[0]->getSourceRange(),
            "found " + std::to_string(Loops.size()) +
                " nested loops; an5dc handles a time loop around 2 or 3 "
                "spatial loops (a 2D or 3D grid)");
    return false;
  }
  Body = Cur;
  return true;
}

bool Extractor::parseIterator(const clang::ForStmt *F,
                              const clang::VarDecl *&Var,
                              const clang::Expr *&Init) {
  const clang::Stmt *I = F->getInit();
  if (const auto *DS = dyn_cast_or_null<clang::DeclStmt>(I)) {
    if (DS->isSingleDecl())
      if (const auto *V = dyn_cast<clang::VarDecl>(DS->getSingleDecl()))
        if (V->getInit() && V->getType()->isIntegerType()) {
          Var = V;
          Init = V->getInit();
          return true;
        }
  } else if (const auto *BO = dyn_cast_or_null<clang::BinaryOperator>(I)) {
    if (BO->getOpcode() == clang::BO_Assign)
      if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(
              BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<clang::VarDecl>(Ref->getDecl()))
          if (V->getType()->isIntegerType()) {
            Var = V;
            Init = BO->getRHS();
            return true;
          }
  }
  D.error(Reject::LoopForm, I ? I->getSourceRange() : F->getSourceRange(),
          "the loop must start by setting one integer iterator, e.g. "
          "'for (int i = 1; i < n - 1; i++)'");
  return false;
}

bool Extractor::parseCondition(const clang::ForStmt *F,
                               const clang::VarDecl *Var, Loop &L) {
  const auto *BO = dyn_cast_or_null<clang::BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  auto isIter = [&](const clang::Expr *E) {
    const auto *Ref = dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == Var;
  };
  if (BO && BO->isRelationalOp()) {
    clang::BinaryOperatorKind Op = BO->getOpcode();
    const clang::Expr *Bound = nullptr;
    int64_t Adjust = 0;
    if (isIter(BO->getLHS()) && (Op == clang::BO_LT || Op == clang::BO_LE)) {
      Bound = BO->getRHS();
      Adjust = Op == clang::BO_LT ? -1 : 0;
    } else if (isIter(BO->getRHS()) &&
               (Op == clang::BO_GT || Op == clang::BO_GE)) {
      Bound = BO->getLHS();
      Adjust = Op == clang::BO_GT ? -1 : 0;
    }
    if (Bound) {
      std::optional<AffineExpr> U = toAffine(Bound);
      if (!U)
        return false;
      L.Upper = *U + AffineExpr::constant(Adjust);
      return true;
    }
  }
  const clang::Expr *C = F->getCond();
  D.error(Reject::LoopForm, C ? C->getSourceRange() : F->getSourceRange(),
          "the loop condition must bound the iterator from above: '" +
              Var->getName().str() + " < bound' or '" + Var->getName().str() +
              " <= bound'");
  return false;
}

bool Extractor::parseIncrement(const clang::ForStmt *F,
                               const clang::VarDecl *Var) {
  const clang::Expr *Inc = F->getInc();
  auto isIter = [&](const clang::Expr *E) {
    const auto *Ref = dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == Var;
  };
  auto isOne = [&](const clang::Expr *E) {
    std::optional<int64_t> V = constantValue(E);
    return V && *V == 1;
  };
  if (Inc) {
    const clang::Expr *E = Inc->IgnoreParens();
    if (const auto *U = dyn_cast<clang::UnaryOperator>(E))
      if (U->isIncrementOp() && isIter(U->getSubExpr()))
        return true;
    if (const auto *CA = dyn_cast<clang::CompoundAssignOperator>(E))
      if (CA->getOpcode() == clang::BO_AddAssign && isIter(CA->getLHS()) &&
          isOne(CA->getRHS()))
        return true;
    if (const auto *BO = dyn_cast<clang::BinaryOperator>(E))
      if (BO->getOpcode() == clang::BO_Assign && isIter(BO->getLHS()))
        if (const auto *Sum = dyn_cast<clang::BinaryOperator>(
                BO->getRHS()->IgnoreParenImpCasts()))
          if (Sum->getOpcode() == clang::BO_Add &&
              ((isIter(Sum->getLHS()) && isOne(Sum->getRHS())) ||
               (isOne(Sum->getLHS()) && isIter(Sum->getRHS()))))
            return true;
  }
  D.error(Reject::LoopForm, Inc ? Inc->getSourceRange() : F->getSourceRange(),
          "the loop must step its iterator by +1 ('" + Var->getName().str() +
              "++', '++" + Var->getName().str() + "' or '" +
              Var->getName().str() + " += 1')");
  return false;
}

bool Extractor::parseLoop(const clang::ForStmt *F, Loop &L) {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Init = nullptr;
  if (!parseIterator(F, Var, Init))
    return false;
  L.Iter = Var->getName().str();
  L.Range = F->getSourceRange();
  // parseIterator accepted a declaration or an assignment as the init.
  L.IterDeclaredOutside = !isa<clang::DeclStmt>(F->getInit());
  for (const auto &[Other, Name] : Iterators)
    if (Name == L.Iter) {
      D.error(Reject::LoopForm, F->getSourceRange(),
              "iterator '" + L.Iter + "' is reused by a nested loop; give "
              "each loop its own iterator");
      return false;
    }
  std::optional<AffineExpr> Lo = toAffine(Init);
  if (!Lo)
    return false;
  L.Lower = *Lo;
  Iterators[Var] = L.Iter;
  return parseCondition(F, Var, L) && parseIncrement(F, Var);
}

/// Spatial loop bounds may use parameters only, so the grid is a box.
bool Extractor::checkRectangular(const std::vector<const clang::ForStmt *> &Loops) {
  std::vector<const Loop *> All = {&S.Time};
  for (const Loop &L : S.Space)
    All.push_back(&L);
  for (size_t I = 0; I < All.size(); ++I)
    for (const Loop *Outer : All)
      for (const AffineExpr *B : {&All[I]->Lower, &All[I]->Upper})
        if (B->coeff(Outer->Iter) != 0) {
          D.error(Reject::LoopForm, Loops[I]->getSourceRange(),
                  "the bounds of loop '" + All[I]->Iter + "' depend on '" +
                      Outer->Iter + "'; an5dc needs a rectangular grid "
                      "whose bounds use only parameters and constants");
          return false;
        }
  return true;
}

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
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!V || !V->getType()->isIntegerType())
      return nonAffine("'" + Ref->getNameInfo().getAsString() +
                       "' is not an integer variable");
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
    return nonAffine("operator '" + B->getOpcodeStr().str() +
                     "' on a variable");
  }
  return nonAffine("unsupported construct");
}

// --- Accesses and the array ------------------------------------------------

bool Extractor::parsePlaneIndex(const clang::Expr *E, Access &A) {
  const auto *B = dyn_cast<clang::BinaryOperator>(E->IgnoreParenImpCasts());
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
    if (M && IsRem && *M > 2) {
      D.error(Reject::NotDoubleBuffered, E->getSourceRange(),
              "the plane index cycles through " + std::to_string(*M) +
                  " planes; an5dc handles double buffering: '(t + 1) % 2' "
                  "for the write and 't % 2' for the reads");
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
      A.ExtentText.push_back(spelling(Size->getSourceRange()));
    } else {
      A.Extents.push_back(std::nullopt);
      A.ExtentText.push_back("");
    }
    T = AT->getElementType();
  }
  ScalarType Elem = scalarTypeOf(T);
  if (Elem != ScalarType::Float && Elem != ScalarType::Double) {
    D.error(Reject::ElementType, Use,
            "the stencil array '" + A.Name + "' has elements of type '" +
                T.getAsString() + "'; an5dc handles float and double");
    D.note(V->getSourceRange(), "'" + A.Name + "' is declared here");
    return false;
  }
  S.Elem = Elem == ScalarType::Float ? ElemType::Float : ElemType::Double;
  A.Elem = S.Elem;
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

/// Parses A[plane][s0][s1]... into an Access of the stencil array.
bool Extractor::parseAccess(const clang::Expr *E, Access &A) {
  std::vector<const clang::Expr *> Indices;
  const clang::Expr *Base = E->IgnoreParens();
  while (const auto *Sub = dyn_cast<clang::ArraySubscriptExpr>(Base)) {
    Indices.insert(Indices.begin(), Sub->getIdx());
    Base = Sub->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<clang::DeclRefExpr>(Base);
  const auto *V = Ref ? dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!V) {
    D.error(Reject::UnsupportedExpr, E->getSourceRange(),
            "the stencil array must be accessed through a variable, as "
            "'A[t % 2][i][j]'");
    return false;
  }
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
              "the plane index must be '(" + S.Time.Iter + " + k) % 2' with "
              "a constant k");
      return false;
    }
    return true;
  };
  if (!check(S.Write))
    return false;
  for (const Access &R : S.Reads)
    if (!check(R))
      return false;
  return true;
}

// --- The update --------------------------------------------------------------

std::string Extractor::spelling(clang::SourceRange R) {
  clang::CharSourceRange CR = clang::CharSourceRange::getTokenRange(
      SM.getSpellingLoc(R.getBegin()), SM.getSpellingLoc(R.getEnd()));
  return clang::Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str();
}

std::optional<Expr> Extractor::scalarRef(const clang::DeclRefExpr *Ref) {
  if (const auto *EC = dyn_cast<clang::EnumConstantDecl>(Ref->getDecl())) {
    Expr Lit;
    Lit.K = Expr::Literal;
    Lit.Type = ScalarType::Int;
    Lit.Text = std::to_string(EC->getInitVal().getSExtValue());
    Lit.Range = Ref->getSourceRange();
    return Lit;
  }
  const auto *V = dyn_cast<clang::VarDecl>(Ref->getDecl());
  ScalarType T = V ? scalarTypeOf(V->getType()) : ScalarType::Other;
  if (!V || T == ScalarType::Other) {
    D.error(Reject::UnsupportedExpr, Ref->getSourceRange(),
            "'" + Ref->getNameInfo().getAsString() +
                "' is not a number; the update may read the stencil array, "
                "numeric variables, literals and math functions");
    return std::nullopt;
  }
  if (Iterators.count(V)) {
    D.error(Reject::UnsupportedExpr, Ref->getSourceRange(),
            "the update uses loop iterator '" + V->getName().str() +
                "' as a value; an5dc needs the same update at every cell and "
                "step (a position-dependent coefficient can come from a second "
                "array in a later version)");
    return std::nullopt;
  }
  Expr E;
  E.K = Expr::Scalar;
  E.Type = T;
  E.Text = V->getName().str();
  E.Range = Ref->getSourceRange();
  auto [It, New] = ScalarIndex.emplace(V, S.Scalars.size());
  if (New) {
    auto [Known, Inserted] = NamedVars.emplace(E.Text, V);
    if (!Inserted && Known->second != V) {
      D.error(Reject::UnsupportedExpr, Ref->getSourceRange(),
              "two different variables are named '" + E.Text +
                  "' in the scop; rename one of them");
      return std::nullopt;
    }
    S.Scalars.push_back({E.Text, T, V->getType().isConstQualified(), E.Range});
  }
  return E;
}

std::optional<Expr> Extractor::callExpr(const clang::CallExpr *Call) {
  const clang::FunctionDecl *F = Call->getDirectCallee();
  std::string Name = F ? F->getName().str() : std::string("<indirect>");
  if (!F || !isPureMathFunction(Name) || F->isVariadic() ||
      F->getNumParams() != Call->getNumArgs()) {
    D.error(Reject::ImpureCall, Call->getSourceRange(),
            "call to '" + Name + "', which an5dc does not know to be pure; "
                "the update may call math functions such as sqrt, fabs, exp, "
                "pow, fmin and fmax (and their float forms sqrtf, ...)");
    return std::nullopt;
  }
  Expr E;
  E.K = Expr::Call;
  E.Type = scalarTypeOf(Call->getType());
  E.Text = Name;
  E.Range = Call->getSourceRange();
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    std::optional<Expr> A = toExpr(Call->getArg(I));
    if (!A)
      return std::nullopt;
    E.Args.push_back(std::move(*A));
    E.ParamTypes.push_back(scalarTypeOf(F->getParamDecl(I)->getType()));
  }
  return E;
}

std::optional<Expr> Extractor::toExpr(const clang::Expr *CE) {
  auto unsupported = [&](const std::string &What) -> std::optional<Expr> {
    D.error(Reject::UnsupportedExpr, CE->getSourceRange(),
            What + " is not supported in the update; an5dc handles + - * /, "
                   "unary minus, casts, parentheses, literals, numeric "
                   "variables, reads of the stencil array and math calls");
    return std::nullopt;
  };
  // Ranges come from the operands: clang finds a binary operator's start by
  // walking down its left operands, quadratic over a long sum.
  while (const auto *ICE = dyn_cast<clang::ImplicitCastExpr>(CE))
    CE = ICE->getSubExpr();
  Expr E;
  E.Type = scalarTypeOf(CE->getType());
  if (isa<clang::FloatingLiteral>(CE) || isa<clang::IntegerLiteral>(CE)) {
    E.Range = CE->getSourceRange();
    E.K = Expr::Literal;
    E.Text = spelling(CE->getSourceRange());
    return E;
  }
  if (const auto *P = dyn_cast<clang::ParenExpr>(CE)) {
    std::optional<Expr> Inner = toExpr(P->getSubExpr());
    if (!Inner)
      return std::nullopt;
    E.K = Expr::Paren;
    E.Range = P->getSourceRange();
    E.Args.push_back(std::move(*Inner));
    return E;
  }
  if (isa<clang::ArraySubscriptExpr>(CE)) {
    Access A;
    if (!parseAccess(CE, A))
      return std::nullopt;
    E.K = Expr::Read;
    E.Range = A.Range;
    E.ReadIndex = S.Reads.size();
    S.Reads.push_back(std::move(A));
    return E;
  }
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(CE))
    return scalarRef(Ref);
  if (const auto *U = dyn_cast<clang::UnaryOperator>(CE)) {
    if (U->getOpcode() != clang::UO_Minus && U->getOpcode() != clang::UO_Plus)
      return unsupported("operator '" +
                         clang::UnaryOperator::getOpcodeStr(U->getOpcode()).str() +
                         "'");
    std::optional<Expr> Sub = toExpr(U->getSubExpr());
    if (!Sub)
      return std::nullopt;
    E.K = Expr::Unary;
    E.Range = clang::SourceRange(U->getOperatorLoc(), Sub->Range.getEnd());
    E.Text = clang::UnaryOperator::getOpcodeStr(U->getOpcode()).str();
    E.Args.push_back(std::move(*Sub));
    return E;
  }
  if (const auto *B = dyn_cast<clang::BinaryOperator>(CE)) {
    clang::BinaryOperatorKind Op = B->getOpcode();
    if (Op != clang::BO_Add && Op != clang::BO_Sub && Op != clang::BO_Mul &&
        Op != clang::BO_Div)
      return unsupported("operator '" + B->getOpcodeStr().str() + "'");
    std::optional<Expr> L = toExpr(B->getLHS());
    if (!L)
      return std::nullopt;
    std::optional<Expr> R = toExpr(B->getRHS());
    if (!R)
      return std::nullopt;
    E.K = Expr::Binary;
    E.Range = clang::SourceRange(L->Range.getBegin(), R->Range.getEnd());
    E.Text = B->getOpcodeStr().str();
    E.Args.push_back(std::move(*L));
    E.Args.push_back(std::move(*R));
    return E;
  }
  if (const auto *Call = dyn_cast<clang::CallExpr>(CE))
    return callExpr(Call);
  if (const auto *Cast = dyn_cast<clang::CStyleCastExpr>(CE)) {
    if (E.Type == ScalarType::Other)
      return unsupported("a cast to '" + Cast->getType().getAsString() + "'");
    std::optional<Expr> Sub = toExpr(Cast->getSubExpr());
    if (!Sub)
      return std::nullopt;
    E.K = Expr::Cast;
    E.Range = clang::SourceRange(Cast->getLParenLoc(), Sub->Range.getEnd());
    E.Text = scalarTypeName(E.Type);
    E.Args.push_back(std::move(*Sub));
    return E;
  }
  if (isa<clang::ConditionalOperator>(CE))
    return unsupported("the conditional operator '?:'");
  return unsupported("this expression");
}

bool Extractor::parseAssignment(const clang::Stmt *Body) {
  const auto *E = dyn_cast_or_null<clang::Expr>(Body);
  const auto *BO = E ? dyn_cast<clang::BinaryOperator>(E->IgnoreParens())
                     : nullptr;
  if (const auto *CA = dyn_cast_or_null<clang::CompoundAssignOperator>(BO)) {
    D.error(Reject::UnsupportedExpr, CA->getSourceRange(),
            "compound assignment '" + CA->getOpcodeStr().str() +
                "' reads the plane being written; write the full update, "
                "'A[(t + 1) % 2][i][j] = ...'");
    return false;
  }
  if (!BO || BO->getOpcode() != clang::BO_Assign ||
      !isa<clang::ArraySubscriptExpr>(BO->getLHS()->IgnoreParens())) {
    D.error(Reject::NotALoopNest, Body->getSourceRange(),
            "the innermost loop must hold one assignment to the stencil "
            "array, 'A[(t + 1) % 2][i][j] = ...;'");
    return false;
  }
  if (!parseAccess(BO->getLHS(), S.Write))
    return false;
  std::optional<Expr> U = toExpr(BO->getRHS());
  if (!U)
    return false;
  S.Update = std::move(*U);
  return true;
}

std::optional<Stencil> Extractor::run() {
  clang::SourceLocation Begin, End;
  if (!findRegion(Begin, End))
    return std::nullopt;
  const clang::FunctionDecl *F = enclosingFunction(Begin);
  if (!F) {
    D.error(Reject::ScopStructure, Begin,
            "the scop region must be inside a function body");
    return std::nullopt;
  }
  const clang::Stmt *Top = regionStatement(F, Begin, End);
  if (!Top)
    return std::nullopt;
  std::vector<const clang::ForStmt *> Loops;
  const clang::Stmt *Body = nullptr;
  if (!collectNest(Top, Loops, Body) || !checkNestingDepth(Top, D))
    return std::nullopt;

  S.Function = F->getNameAsString();
  S.FileName = llvm::sys::path::filename(
                   SM.getFilename(SM.getLocForStartOfFile(SM.getMainFileID())))
                   .str();
  S.ScopLine = SM.getExpansionLineNumber(Begin);
  S.ScopRange = clang::SourceRange(Begin, End);
  S.NestRange = Top->getSourceRange();
  if (!parseLoop(Loops[0], S.Time))
    return std::nullopt;
  S.Space.resize(Loops.size() - 1);
  for (size_t I = 1; I < Loops.size(); ++I)
    if (!parseLoop(Loops[I], S.Space[I - 1]))
      return std::nullopt;
  if (!checkRectangular(Loops) || !parseAssignment(Body) ||
      !checkPlaneIndices())
    return std::nullopt;
  return std::move(S);
}

} // namespace

std::optional<Stencil> an5d::extractStencil(SourceSession &Session) {
  if (!Session.parsed())
    return std::nullopt;
  return Extractor(Session).run();
}
