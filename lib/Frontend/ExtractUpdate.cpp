//===- ExtractUpdate.cpp - The update expression ---------------------------===//
//
// The assignment in the innermost loop: its write and the expression tree
// of its right-hand side (reads, scalars, literals, operators, math calls).
//
//===----------------------------------------------------------------------===//
#include "Extractor.h"

#include "clang/Lex/Lexer.h"

#include <set>
#include <utility>

using namespace an5d;
using namespace an5d::frontend;
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

} // namespace

ScalarType frontend::scalarTypeOf(clang::QualType T) {
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
  if (Iterators.count(V) && Iterators[V] == S.Time.Iter) {
    // The step as written: the same at every cell of one step.
    Expr E;
    E.K = Expr::Time;
    E.Type = T;
    E.Text = Iterators[V];
    E.Range = Ref->getSourceRange();
    S.ReadsTime = true;
    S.TimeType = T;
    return E;
  }
  if (Iterators.count(V)) {
    D.error(Reject::UnsupportedExpr, Ref->getSourceRange(),
            "the update uses loop iterator '" + V->getName().str() +
                "' as a value; an5dc needs the same update at every cell (the "
                "time loop's iterator may appear): give a coefficient that "
                "depends on the position as a read-only array filled before "
                "the time loop and indexed by the iterators, as 'coef[" +
                V->getName().str() + "] * ...'");
    return std::nullopt;
  }
  Expr E;
  E.K = Expr::Scalar;
  E.Type = T;
  E.Text = V->getName().str();
  E.Range = Ref->getSourceRange();
  auto [It, New] = ScalarIndex.emplace(V, S.Scalars.size());
  if (New) {
    if (!claimName(E.Text, V, Ref->getSourceRange()))
      return std::nullopt;
    S.Scalars.push_back({E.Text, T, V->getType().isConstQualified(), E.Range});
  }
  return E;
}

std::optional<Expr> Extractor::callExpr(const clang::CallExpr *Call) {
  const clang::FunctionDecl *F = Call->getDirectCallee();
  std::string Name = F ? F->getName().str() : std::string("<indirect>");
  // Any other function: its body, if the program has one that is pure.
  if (!F || !isPureMathFunction(Name) || F->isVariadic() ||
      F->getNumParams() != Call->getNumArgs())
    return inlinedCall(Call);
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

namespace {

Expr parenthesized(Expr Inner) {
  Expr P;
  P.K = Expr::Paren;
  P.Type = Inner.Type;
  P.Range = Inner.Range;
  P.Args.push_back(std::move(Inner));
  return P;
}

} // namespace

std::optional<Expr> Extractor::localValue(const clang::VarDecl *V,
                                          clang::SourceRange Use) {
  const std::vector<LocalDef> &Defs = LocalTemps.at(V);
  const LocalDef *Def = nullptr;
  for (const LocalDef &D : Defs)
    if (D.Pos < LocalPos)
      Def = &D;
  if (!Def) {
    D.error(Reject::UnsupportedExpr, Use,
            "'" + V->getName().str() + "' is read before it is set; give "
            "the local its value before the reads");
    return std::nullopt;
  }
  const unsigned Saved = LocalPos;
  LocalPos = Def->Pos;
  // The definition's unrolled iterators over those in force: the others
  // (a caller's, around an inlined call) stay readable through arguments.
  std::map<const clang::VarDecl *, int64_t> SavedBound = BoundConstants;
  for (const auto &[Var, Value] : Def->Bound)
    BoundConstants[Var] = Value;
  ++InLocalTemp;
  std::optional<Expr> Value;
  const auto *Assign =
      Def->Assignment ? llvm::cast<clang::BinaryOperator>(Def->Value) : nullptr;
  if (!Assign) {
    Value = toExpr(Def->Value); // the initializer
  } else if (Assign->getOpcode() == clang::BO_Assign) {
    Value = toExpr(Assign->getRHS());
  } else {
    // 'acc op= e' is 'acc = (T)(acc op e)', computed in the wider type.
    std::optional<Expr> Before = localValue(V, Assign->getLHS()->getSourceRange());
    std::optional<Expr> Operand =
        Before ? toExpr(Assign->getRHS()) : std::nullopt;
    if (Operand) {
      Expr B;
      B.K = Expr::Binary;
      const auto *CA = llvm::cast<clang::CompoundAssignOperator>(Assign);
      B.Type = scalarTypeOf(CA->getComputationResultType());
      B.Text = clang::BinaryOperator::getOpcodeStr(
                   clang::BinaryOperator::getOpForCompoundAssignment(
                       Assign->getOpcode()))
                   .str();
      B.Range = Assign->getSourceRange();
      B.Args.push_back(parenthesized(std::move(*Before)));
      B.Args.push_back(parenthesized(std::move(*Operand)));
      Value = std::move(B);
    }
  }
  // Under ifs: 'c ? value : before', the condition and the value before
  // read where the assignment stands.
  if (Value && !Def->Conds.empty()) {
    std::optional<Expr> Cond = conditionValue(Def->Conds);
    std::optional<Expr> Before =
        Cond ? localValue(V, Def->Value->getSourceRange()) : std::nullopt;
    if (!Before) {
      Value.reset();
    } else {
      Expr Sel;
      Sel.K = Expr::Select;
      Sel.Type = scalarTypeOf(V->getType());
      Sel.Range = Def->Value->getSourceRange();
      Sel.Args.push_back(std::move(*Cond));
      Sel.Args.push_back(parenthesized(std::move(*Value)));
      Sel.Args.push_back(parenthesized(std::move(*Before)));
      Value = std::move(Sel);
    }
  }
  --InLocalTemp;
  LocalPos = Saved;
  BoundConstants = std::move(SavedBound);
  if (!Value)
    return std::nullopt;
  // Rounded to the local's type (where C converts it), read afresh at each
  // use.
  const ScalarType Type = scalarTypeOf(V->getType());
  if (Value->Type == Type) {
    Expr P = parenthesized(std::move(*Value));
    P.Range = Use;
    return P;
  }
  Expr E;
  E.K = Expr::Cast;
  E.Type = Type;
  E.Range = Use;
  E.Text = scalarTypeName(E.Type);
  E.Args.push_back(parenthesized(std::move(*Value)));
  return E;
}

std::optional<Expr> Extractor::conditionValue(const CondList &Conds) {
  std::optional<Expr> All;
  for (const auto &[C, Negated] : Conds) {
    std::optional<Expr> One = toExpr(C);
    if (!One)
      return std::nullopt;
    Expr P = parenthesized(std::move(*One));
    if (Negated) {
      Expr Not;
      Not.K = Expr::Unary;
      Not.Type = ScalarType::Int;
      Not.Text = "!";
      Not.Range = P.Range;
      Not.Args.push_back(std::move(P));
      P = std::move(Not);
    }
    if (!All) {
      All = std::move(P);
      continue;
    }
    Expr And;
    And.K = Expr::Binary;
    And.Type = ScalarType::Int;
    And.Text = "&&";
    And.Range = clang::SourceRange(All->Range.getBegin(), P.Range.getEnd());
    And.Args.push_back(std::move(*All));
    And.Args.push_back(std::move(P));
    All = std::move(And);
  }
  return All;
}

std::optional<Expr> Extractor::toExpr(const clang::Expr *CE) {
  // Locals and parameters stand for their values at each use, so the tree
  // can grow far past the source ('x = x * x;' repeated doubles it).
  if (++UpdateNodes > MaxUpdateNodes) {
    if (!UpdateTooLarge)
      D.error(Reject::TooDeep, CE->getSourceRange(),
              "the update grows past " + std::to_string(MaxUpdateNodes) +
                  " operations once its locals and function calls stand for "
                  "their values (each use of a local repeats its value); use "
                  "a local's value fewer times");
    UpdateTooLarge = true;
    return std::nullopt;
  }
  auto unsupported = [&](const std::string &What) -> std::optional<Expr> {
    D.error(Reject::UnsupportedExpr, CE->getSourceRange(),
            What + " is not supported in the update; an5dc handles + - * /, "
                   "unary minus, comparisons, '&&', '||', '!', 'c ? a : b', "
                   "casts, parentheses, literals, numeric variables, reads "
                   "of the stencil array and of read-only coefficient "
                   "arrays, and math calls");
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
    std::vector<const clang::Expr *> Indices;
    const clang::Expr *Base = CE;
    while (const auto *Sub = dyn_cast<clang::ArraySubscriptExpr>(Base)) {
      Indices.insert(Indices.begin(), Sub->getIdx());
      Base = throughParams(Sub->getBase());
    }
    const auto *BaseRef = dyn_cast<clang::DeclRefExpr>(Base);
    const auto *BaseVar =
        BaseRef ? dyn_cast<clang::VarDecl>(BaseRef->getDecl()) : nullptr;
    if (BaseVar && !StencilVars.count(BaseVar))
      return coefRead(CE, BaseVar, Indices);
    Access A;
    if (!parseAccess(CE, A))
      return std::nullopt;
    E.K = Expr::Read;
    E.Range = A.Range;
    E.ReadIndex = S.Reads.size();
    if (InLocalTemp)
      LocalTempReads.insert(S.Reads.size());
    S.Reads.push_back(std::move(A));
    return E;
  }
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(CE)) {
    // A local scalar: its initializer as C evaluates it, rounded to the
    // local's type ('(float)(...)'), read afresh at each use.
    // A parameter of a function being inlined: its argument.
    if (const ParamBinding *B = paramBinding(Ref))
      return paramValue(llvm::cast<clang::ParmVarDecl>(Ref->getDecl()), *B,
                        Ref->getSourceRange());
    const auto *V = dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (V && LocalTemps.count(V))
      return localValue(V, Ref->getSourceRange());
    // An int local: its value, in parentheses.
    if (const clang::Expr *Local = intLocalValue(Ref)) {
      std::optional<Expr> Value = toExpr(Local);
      if (!Value)
        return std::nullopt;
      Expr P = parenthesized(std::move(*Value));
      P.Range = Ref->getSourceRange();
      return P;
    }
    // An unrolled loop's iterator: this copy's value.
    if (auto It = V ? BoundConstants.find(V) : BoundConstants.end();
        It != BoundConstants.end()) {
      E.K = Expr::Literal;
      E.Range = Ref->getSourceRange();
      E.Text = std::to_string(It->second);
      return E;
    }
    return scalarRef(Ref);
  }
  if (const auto *U = dyn_cast<clang::UnaryOperator>(CE)) {
    if (U->getOpcode() != clang::UO_Minus && U->getOpcode() != clang::UO_Plus &&
        U->getOpcode() != clang::UO_LNot)
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
    // Comparisons and logical operators feed the conditional operator.
    if (Op != clang::BO_Add && Op != clang::BO_Sub && Op != clang::BO_Mul &&
        Op != clang::BO_Div && !B->isComparisonOp() && !B->isLogicalOp())
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
  if (const auto *C = dyn_cast<clang::ConditionalOperator>(CE)) {
    // 'c ? a : b': pure operands, so the select C makes is the value.
    std::optional<Expr> Cond = toExpr(C->getCond());
    std::optional<Expr> Then = Cond ? toExpr(C->getTrueExpr()) : std::nullopt;
    std::optional<Expr> Else = Then ? toExpr(C->getFalseExpr()) : std::nullopt;
    if (!Else)
      return std::nullopt;
    if (E.Type == ScalarType::Other)
      return unsupported("a conditional of type '" +
                         C->getType().getAsString() + "'");
    E.K = Expr::Select;
    E.Range = clang::SourceRange(Cond->Range.getBegin(), Else->Range.getEnd());
    E.Args.push_back(std::move(*Cond));
    E.Args.push_back(std::move(*Then));
    E.Args.push_back(std::move(*Else));
    return E;
  }
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
  if (!parseAccess(BO->getLHS(), S.Write, /*IsWrite=*/true))
    return false;
  std::optional<Expr> U = toExpr(BO->getRHS());
  if (!U)
    return false;
  S.Update = std::move(*U);
  return true;
}
