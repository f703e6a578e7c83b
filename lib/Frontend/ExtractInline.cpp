//===- ExtractInline.cpp - User functions the update calls ----------------===//
//
// A function of the program the update calls ('static inline float lap(float
// (*a)[m], int i, int j) { return a[i - 1][j] + ...; }') is read as if its
// body stood at the call: every parameter stands for its argument, read where
// the call stands. A scalar parameter is its argument converted to the
// parameter's type, as C passes it; an array or pointer parameter is the
// argument's array, so that 'a[i - 1][j]' with 'a' bound to 'A[t % 2]' is
// 'A[t % 2][i - 1][j]'. The body may hold float and double locals, updates
// of them (also in loops with constant bounds) and one return at the end:
// such a function is pure, and what it returns is an expression of its
// arguments.
//
//===----------------------------------------------------------------------===//
#include "Extractor.h"

#include <algorithm>

using namespace an5d;
using namespace an5d::frontend;
using clang::dyn_cast;
using clang::isa;
using llvm::dyn_cast_or_null;

const Extractor::ParamBinding *
Extractor::paramBinding(const clang::Expr *E) const {
  const auto *Ref = dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *P = Ref ? dyn_cast<clang::ParmVarDecl>(Ref->getDecl()) : nullptr;
  auto It = P ? ParamArgs.find(P) : ParamArgs.end();
  return It == ParamArgs.end() ? nullptr : &It->second;
}

const clang::Expr *Extractor::throughParams(const clang::Expr *E) const {
  E = E->IgnoreParenImpCasts();
  while (const ParamBinding *B = paramBinding(E)) {
    clang::QualType T = E->getType();
    if (!T->isPointerType() && !T->isArrayType())
      break;
    E = B->Arg->IgnoreParenImpCasts();
  }
  return E;
}

bool Extractor::namesVar(const clang::Expr *E, const clang::VarDecl *V) const {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(E)) {
    if (Ref->getDecl() == V)
      return true;
    if (const clang::Expr *Value = intLocalValue(Ref))
      return namesVar(Value, V);
    const ParamBinding *B = paramBinding(E);
    return B && namesVar(B->Arg, V);
  }
  for (const clang::Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<clang::Expr>(C))
      if (namesVar(CE, V))
        return true;
  return false;
}

bool Extractor::collectReturns(const clang::Stmt *St, unsigned Pos,
                               const CondList &Conds,
                               std::vector<Return> &Out) {
  if (const auto *Ret = dyn_cast<clang::ReturnStmt>(St)) {
    if (!Ret->getRetValue())
      return false;
    Out.push_back({Pos, Conds, Ret->getRetValue()});
    return true;
  }
  if (const auto *CS = dyn_cast<clang::CompoundStmt>(St))
    return CS->size() == 1 && collectReturns(CS->body_front(), Pos, Conds, Out);
  const auto *If = dyn_cast<clang::IfStmt>(St);
  if (!If || If->getInit() || If->getConditionVariable())
    return false;
  CondList Then = Conds, Else = Conds;
  Then.push_back({If->getCond(), false});
  Else.push_back({If->getCond(), true});
  return collectReturns(If->getThen(), Pos, Then, Out) &&
         (!If->getElse() || collectReturns(If->getElse(), Pos, Else, Out));
}

const std::vector<Extractor::Return> *
Extractor::enterCall(const clang::CallExpr *Call, CallFrame &Frame,
                     bool Integer) {
  const clang::FunctionDecl *Callee = Call->getDirectCallee();
  const clang::FunctionDecl *F = Callee ? Callee->getDefinition() : nullptr;
  const std::string Name =
      Callee ? Callee->getNameAsString() : std::string("<indirect>");
  if (!F || !F->hasBody()) {
    D.error(Reject::ImpureCall, Call->getSourceRange(),
            "call to '" + Name + "', which an5dc does not know to be pure; "
                "the update may call math functions such as sqrt, fabs, exp, "
                "pow, fmin and fmax (and their float forms sqrtf, ...), and "
                "functions defined in the program whose body is float or "
                "double locals and a return");
    return nullptr;
  }
  if (F->isVariadic() || F->getNumParams() != Call->getNumArgs()) {
    D.error(Reject::ImpureCall, Call->getSourceRange(),
            "'" + Name + "' takes a variable number of arguments; an5dc "
            "inlines functions with a fixed parameter list");
    return nullptr;
  }
  if (llvm::is_contained(OpenCalls, F)) {
    D.error(Reject::ImpureCall, Call->getSourceRange(),
            "'" + Name + "' calls itself; an5dc inlines the functions the "
            "update calls, so they may not be recursive");
    return nullptr;
  }
  auto Known = BodiesRead.find(F);
  if (Known == BodiesRead.end()) {
    // The locals and returns of the body, read once: every call reads the
    // same definitions, its parameters bound anew. 'if (c) return a;'
    // stands where it is among the locals' definitions.
    const auto *Body = dyn_cast<clang::CompoundStmt>(F->getBody());
    std::vector<Return> Returns;
    const clang::Stmt *Bad = Body;
    if (Body) {
      unsigned Pos = 0;
      Bad = nullptr;
      for (const clang::Stmt *St : Body->body()) {
        if (isa<clang::NullStmt>(St))
          continue;
        const bool Final = !Returns.empty() && Returns.back().Conds.empty();
        if (Final || (!collectReturns(St, Pos, {}, Returns) &&
                      !collectLocal(St, Pos))) {
          Bad = St;
          break;
        }
      }
      if (!Bad && (Returns.empty() || !Returns.back().Conds.empty()))
        Bad = Body; // the body can end without a return
    }
    if (Bad) {
      D.error(Reject::ImpureCall, Bad->getSourceRange(),
              "an5dc inlines a function the update calls when its body is "
              "float or double locals, assignments to them (also in loops "
              "with constant bounds and under 'if'), 'if (c) return a;' and "
              "one 'return' at the end");
      D.note(Call->getSourceRange(), "'" + Name + "' is called here");
      return nullptr;
    }
    Known = BodiesRead.emplace(F, std::move(Returns)).first;
  }
  if (Integer && (Known->second.size() != 1 ||
                  !F->getReturnType()->isIntegerType() ||
                  llvm::any_of(LocalTemps, [&](const auto &L) {
                    return L.first->getDeclContext() == F;
                  }))) {
    D.error(Reject::ImpureCall, F->getBody()->getSourceRange(),
            "an5dc inlines a function called in an index when its body is "
            "one 'return' of an integer expression");
    D.note(Call->getSourceRange(), "'" + Name + "' is called here");
    return nullptr;
  }
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    const clang::ParmVarDecl *P = F->getParamDecl(I);
    auto It = ParamArgs.find(P);
    Frame.Saved.emplace_back(P, It == ParamArgs.end()
                                    ? std::nullopt
                                    : std::optional<ParamBinding>(It->second));
  }
  // Bound only once all are saved: an argument may name a parameter of
  // the same function in an enclosing call ('f(f(x))' reads x there).
  for (unsigned I = 0; I < F->getNumParams(); ++I)
    ParamArgs[F->getParamDecl(I)] = {Call->getArg(I), LocalPos, OpenCalls};
  OpenCalls.push_back(F);
  Frame.SavedPos = std::exchange(LocalPos, ~0u);
  return &Known->second;
}

void Extractor::leaveCall(CallFrame &Frame) {
  for (auto &[P, Old] : Frame.Saved) {
    if (Old)
      ParamArgs[P] = *Old;
    else
      ParamArgs.erase(P);
  }
  OpenCalls.pop_back();
  LocalPos = Frame.SavedPos;
}

namespace {

/// Inner converted to T ('(T)(inner)'), or parenthesized when it has T.
Expr convertedTo(Expr Inner, ScalarType T, clang::SourceRange Range) {
  Expr P;
  P.K = Expr::Paren;
  P.Type = Inner.Type;
  P.Range = Range;
  P.Args.push_back(std::move(Inner));
  if (P.Type == T)
    return P;
  Expr C;
  C.K = Expr::Cast;
  C.Type = T;
  C.Range = Range;
  C.Text = scalarTypeName(T);
  C.Args.push_back(std::move(P));
  return C;
}

} // namespace

std::optional<Expr> Extractor::paramValue(const clang::ParmVarDecl *P,
                                          const ParamBinding &B,
                                          clang::SourceRange Use) {
  const ScalarType T = scalarTypeOf(P->getType());
  if (T == ScalarType::Other) {
    D.error(Reject::UnsupportedExpr, Use,
            "parameter '" + P->getName().str() + "' is not a number; read "
            "the elements of an array parameter ('" + P->getName().str() +
            "[i][j]')");
    return std::nullopt;
  }
  std::optional<Expr> V = atCaller(B, [&] { return toExpr(B.Arg); });
  if (!V)
    return std::nullopt;
  return convertedTo(std::move(*V), T, Use);
}

std::optional<Expr> Extractor::inlinedCall(const clang::CallExpr *Call) {
  const ScalarType T = scalarTypeOf(Call->getType());
  CallFrame Frame;
  const std::vector<Return> *Returns =
      enterCall(Call, Frame, /*Integer=*/false);
  if (!Returns)
    return std::nullopt;
  const std::string Name = Call->getDirectCallee()->getNameAsString();
  std::optional<Expr> V;
  if (T == ScalarType::Float || T == ScalarType::Double ||
      T == ScalarType::Int)
    V = returnedValue(*Returns, 0, T);
  else
    D.error(Reject::ImpureCall, Call->getSourceRange(),
            "'" + Name + "' returns '" + Call->getType().getAsString() +
                "'; an5dc inlines functions that return a number");
  leaveCall(Frame);
  if (!V) {
    D.note(Call->getSourceRange(), "in the call of '" + Name + "' here");
    return std::nullopt;
  }
  // Already of the return type: parenthesized once (a select among
  // returns is not yet).
  if (V->K == Expr::Paren || V->K == Expr::Cast) {
    V->Range = Call->getSourceRange();
    return V;
  }
  return convertedTo(std::move(*V), T, Call->getSourceRange());
}

std::optional<Expr> Extractor::returnedValue(const std::vector<Return> &Returns,
                                             size_t First, ScalarType T) {
  // Each return's value as the function's type, the conditional ones
  // selected in order: 'c1 ? v1 : (c2 ? v2 : last)'.
  const Return &R = Returns[First];
  const unsigned Saved = std::exchange(LocalPos, R.Pos);
  if (R.Conds.empty())
    LocalPos = ~0u; // the last return sees every definition
  std::optional<Expr> Value = toExpr(R.Value);
  std::optional<Expr> Cond =
      Value && !R.Conds.empty() ? conditionValue(R.Conds) : std::nullopt;
  LocalPos = Saved;
  if (!Value || (!R.Conds.empty() && !Cond))
    return std::nullopt;
  Expr V = convertedTo(std::move(*Value), T, R.Value->getSourceRange());
  if (R.Conds.empty())
    return V;
  std::optional<Expr> Rest = returnedValue(Returns, First + 1, T);
  if (!Rest)
    return std::nullopt;
  Expr Sel;
  Sel.K = Expr::Select;
  Sel.Type = T;
  Sel.Range = R.Value->getSourceRange();
  Sel.Args.push_back(std::move(*Cond));
  Sel.Args.push_back(std::move(V));
  Expr P;
  P.K = Expr::Paren;
  P.Type = T;
  P.Range = Rest->Range;
  P.Args.push_back(std::move(*Rest));
  Sel.Args.push_back(std::move(P));
  return Sel;
}
