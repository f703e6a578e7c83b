//===- Extract.cpp - Scop region to stencil description -------------------===//
//
// Finds the scop region, its loop nest and the loops' headers, and runs the
// extraction (Extractor.h says which file reads what).
//
//===----------------------------------------------------------------------===//
#include "Extractor.h"

#include "clang/AST/StmtOpenMP.h"

#include <cassert>

#include "llvm/Support/Path.h"

using namespace an5d;
using namespace an5d::frontend;
using clang::dyn_cast;
using clang::isa;
using llvm::dyn_cast_or_null;

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

/// The statements of a block of pointer copies ('{ float *t = a; a = b;
/// b = t; }', or the same in 'do { ... } while (0)': a SWAP macro), or
/// null when St is no such block.
static const clang::CompoundStmt *pointerCopyBlock(const clang::Stmt *St) {
  if (const auto *Do = dyn_cast<clang::DoStmt>(St)) {
    const auto *Zero = dyn_cast_or_null<clang::IntegerLiteral>(
        Do->getCond() ? Do->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Zero || Zero->getValue() != 0)
      return nullptr;
    St = Do->getBody();
  }
  const auto *CS = dyn_cast_or_null<clang::CompoundStmt>(St);
  if (!CS || CS->body_empty())
    return nullptr;
  for (const clang::Stmt *C : CS->body()) {
    const clang::VarDecl *Dst, *Src;
    bool Declares;
    if (!isa<clang::NullStmt>(C) && !pointerCopy(C, Dst, Src, Declares))
      return nullptr;
  }
  return CS;
}

const clang::Stmt *
an5d::frontend::withoutOmpLoopDirectives(const clang::Stmt *St) {
  while (const auto *Dir = dyn_cast_or_null<clang::OMPLoopBasedDirective>(St)) {
    St = Dir->getAssociatedStmt();
    while (const auto *Captured = dyn_cast_or_null<clang::CapturedStmt>(St))
      St = Captured->getCapturedStmt();
  }
  return St;
}

std::vector<const clang::Stmt *>
Extractor::timeStepStatements(const clang::CompoundStmt *CS) {
  std::vector<const clang::Stmt *> Body;
  for (const clang::Stmt *Item : CS->body()) {
    const clang::Stmt *C = withoutOmpLoopDirectives(Item);
    if (isa<clang::NullStmt>(C))
      continue;
    if (const clang::CompoundStmt *Block = pointerCopyBlock(C)) {
      for (const clang::Stmt *X : Block->body())
        if (!isa<clang::NullStmt>(X))
          Body.push_back(X);
      continue;
    }
    Body.push_back(C);
  }
  return Body;
}

bool an5d::frontend::isLocalDecl(const clang::Stmt *St) {
  const auto *DS = dyn_cast<clang::DeclStmt>(St);
  if (!DS)
    return false;
  for (const clang::Decl *Dc : DS->decls()) {
    const auto *V = dyn_cast<clang::VarDecl>(Dc);
    if (!V || !V->hasLocalStorage() || V->getType()->isPointerType())
      return false;
    ScalarType T = scalarTypeOf(V->getType());
    if (T != ScalarType::Float && T != ScalarType::Double)
      return false;
  }
  return true;
}

/// 'int cur = t % 2, nxt = 1 - cur;': local integers, each initialized.
/// S names V.
static bool names(const clang::Stmt *S, const clang::VarDecl *V) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(S))
    return Ref->getDecl() == V;
  for (const clang::Stmt *C : S->children())
    if (names(C, V))
      return true;
  return false;
}

bool an5d::frontend::planeLocals(const clang::Stmt *St) {
  const auto *DS = dyn_cast<clang::DeclStmt>(St);
  if (!DS)
    return false;
  // 'int c = c + 1;' reads c before it has a value; standing for its
  // value, it would stand for itself.
  for (const clang::Decl *Dc : DS->decls()) {
    const auto *V = dyn_cast<clang::VarDecl>(Dc);
    if (!V || !V->hasLocalStorage() || !V->getInit() ||
        !V->getType()->isIntegerType() || names(V->getInit(), V))
      return false;
  }
  return true;
}

bool Extractor::collectLocal(const clang::Stmt *St, unsigned &Pos) {
  // 'int c = i * m + j;': read as its value wherever it is named (an
  // assignment to it later is not a local update and is refused).
  if (planeLocals(St)) {
    for (const clang::Decl *Dc : llvm::cast<clang::DeclStmt>(St)->decls()) {
      const auto *V = llvm::cast<clang::VarDecl>(Dc);
      IntLocals[V] = V->getInit();
    }
    return true;
  }
  if (isLocalDecl(St)) {
    for (const clang::Decl *Dc : llvm::cast<clang::DeclStmt>(St)->decls()) {
      const auto *V = llvm::cast<clang::VarDecl>(Dc);
      std::vector<LocalDef> &Defs = LocalTemps[V];
      if (V->getInit())
        Defs.push_back({Pos++, V->getInit(), false, {}});
    }
    return true;
  }
  return unrollLocalUpdates(St, {}, Pos);
}

size_t Extractor::collectLocals(const std::vector<const clang::Stmt *> &Body) {
  unsigned Pos = 0;
  size_t K = 0;
  while (K < Body.size() && collectLocal(Body[K], Pos))
    ++K;
  return K;
}

bool Extractor::constantLoop(const clang::ForStmt *F,
                             const clang::VarDecl *&Var,
                             std::vector<int64_t> &Values) {
  const auto *Init = dyn_cast_or_null<clang::DeclStmt>(F->getInit());
  if (!Init || !Init->isSingleDecl())
    return false;
  Var = dyn_cast<clang::VarDecl>(Init->getSingleDecl());
  if (!Var || !Var->getType()->isIntegerType() || !Var->getInit())
    return false;
  std::optional<int64_t> Lo = constantValue(Var->getInit());
  const auto *Cond = dyn_cast_or_null<clang::BinaryOperator>(F->getCond());
  if (!Lo || !Cond ||
      (Cond->getOpcode() != clang::BO_LT && Cond->getOpcode() != clang::BO_LE))
    return false;
  const auto *CondRef =
      dyn_cast<clang::DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  std::optional<int64_t> Hi = constantValue(Cond->getRHS());
  if (!CondRef || CondRef->getDecl() != Var || !Hi)
    return false;
  const clang::Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
  std::optional<int64_t> Step;
  if (const auto *U = dyn_cast_or_null<clang::UnaryOperator>(Inc)) {
    if (U->isIncrementOp())
      Step = 1;
  } else if (const auto *CA =
                 dyn_cast_or_null<clang::CompoundAssignOperator>(Inc)) {
    if (CA->getOpcode() == clang::BO_AddAssign)
      Step = constantValue(CA->getRHS());
  }
  const int64_t Last = Cond->getOpcode() == clang::BO_LT ? *Hi - 1 : *Hi;
  if (!Step || *Step < 1 || *Step > 1024 || Last - *Lo >= 64 * *Step)
    return false;
  for (int64_t V = *Lo; V <= Last; V += *Step)
    Values.push_back(V);
  return true;
}

bool Extractor::unrollLocalUpdates(
    const clang::Stmt *St, const std::map<const clang::VarDecl *, int64_t> &Bound,
    unsigned &Pos, const CondList &Conds) {
  if (const auto *CS = dyn_cast<clang::CompoundStmt>(St)) {
    for (const clang::Stmt *C : CS->body())
      if (!isa<clang::NullStmt>(C) && !unrollLocalUpdates(C, Bound, Pos, Conds))
        return false;
    return true;
  }
  // 'if (c) x = a; else x = b;': each assignment holds where its branch's
  // conditions do (a select of the value before).
  if (const auto *If = dyn_cast<clang::IfStmt>(St)) {
    if (If->getInit() || If->getConditionVariable())
      return false;
    CondList Then = Conds, Else = Conds;
    Then.push_back({If->getCond(), false});
    Else.push_back({If->getCond(), true});
    return unrollLocalUpdates(If->getThen(), Bound, Pos, Then) &&
           (!If->getElse() ||
            unrollLocalUpdates(If->getElse(), Bound, Pos, Else));
  }
  if (const auto *F = dyn_cast<clang::ForStmt>(St)) {
    const clang::VarDecl *Var = nullptr;
    std::vector<int64_t> Values;
    if (!constantLoop(F, Var, Values))
      return false;
    for (int64_t V : Values) {
      std::map<const clang::VarDecl *, int64_t> Inner = Bound;
      Inner[Var] = V;
      if (!unrollLocalUpdates(F->getBody(), Inner, Pos, Conds))
        return false;
    }
    return true;
  }
  // 'acc = e;', 'acc += e;' (also -=, *=, /=) to a local declared above.
  const auto *BO = dyn_cast<clang::BinaryOperator>(St);
  const clang::BinaryOperatorKind Op = BO ? BO->getOpcode() : clang::BO_Comma;
  const bool Assigns = Op == clang::BO_Assign || Op == clang::BO_AddAssign ||
                       Op == clang::BO_SubAssign || Op == clang::BO_MulAssign ||
                       Op == clang::BO_DivAssign;
  const auto *Ref =
      Assigns ? dyn_cast<clang::DeclRefExpr>(BO->getLHS()->IgnoreParens())
              : nullptr;
  const auto *V = Ref ? dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  auto It = V ? LocalTemps.find(V) : LocalTemps.end();
  if (It == LocalTemps.end())
    return false;
  It->second.push_back({Pos++, BO, true, Bound, Conds});
  return true;
}

/// Looks through braces holding one statement (after local scalars, see
/// collectLocals). Ok is false after an error.
const clang::Stmt *Extractor::singleStatement(const clang::Stmt *St, bool &Ok) {
  Ok = true;
  St = withoutOmpLoopDirectives(St);
  while (const auto *CS = dyn_cast_or_null<clang::CompoundStmt>(St)) {
    std::vector<const clang::Stmt *> Body;
    for (const clang::Stmt *C : CS->body())
      if (!isa<clang::NullStmt>(C))
        Body.push_back(withoutOmpLoopDirectives(C));
    if (Body.empty()) {
      D.error(Reject::NotALoopNest, CS->getSourceRange(),
              "empty loop body; the innermost loop must assign the stencil "
              "array");
      Ok = false;
      return nullptr;
    }
    // Local scalars declared and set before the innermost assignment
    // ('float lap = ...; acc += ...; B[i][j] = A[i][j] + c * lap;') stand
    // for their values (LocalTemps).
    if (Body.size() > 1 && !isa<clang::ForStmt>(Body.back()) &&
        !isa<clang::CompoundStmt>(Body.back()) &&
        !isa<clang::DeclStmt>(Body.back())) {
      std::vector<const clang::Stmt *> Before(Body.begin(), Body.end() - 1);
      const size_t Lead = collectLocals(Before);
      if (Lead == Before.size())
        return Body.back();
      LocalTemps.clear();
      // An int local read in its own initializer.
      if (const auto *DS = dyn_cast<clang::DeclStmt>(Body[Lead]))
        for (const clang::Decl *Dc : DS->decls())
          if (const auto *V = dyn_cast<clang::VarDecl>(Dc);
              V && V->getInit() && names(V->getInit(), V)) {
            D.error(Reject::UnsupportedExpr, V->getInit()->getSourceRange(),
                    "'" + V->getName().str() + "' is read in its own "
                    "initializer, before it has a value");
            Ok = false;
            return nullptr;
          }
      // An int local changed after its declaration ('c += 1;').
      const auto *Set = dyn_cast<clang::BinaryOperator>(Body[Lead]);
      const auto *Ref =
          Set && Set->isAssignmentOp()
              ? dyn_cast<clang::DeclRefExpr>(Set->getLHS()->IgnoreParens())
              : nullptr;
      if (const auto *V =
              Ref ? dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
          V && IntLocals.count(V)) {
        D.error(Reject::MultipleStatements, Body[Lead]->getSourceRange(),
                "'" + V->getName().str() + "' is an int local, which an5dc "
                "reads as the value it is declared with; give it its final "
                "value there ('int " + V->getName().str() + " = ...;')");
        Ok = false;
        return nullptr;
      }
      if (Lead > 0 && isa<clang::ForStmt>(Body[Lead])) {
        D.error(Reject::MultipleStatements, Body[Lead]->getSourceRange(),
                "a loop inside the innermost loop is unrolled when it runs "
                "over constant bounds ('for (int r = 1; r <= 4; r++)', its "
                "iterator declared there, at most 64 iterations) and only "
                "updates local scalars ('acc += ...;'); this one does not");
        Ok = false;
        return nullptr;
      }
    }
    if (Body.size() > 1) {
      D.error(Reject::MultipleStatements, Body[1]->getSourceRange(),
              "a loop of the nest holds " + std::to_string(Body.size()) +
                  " statements; an5dc handles a single assignment "
                  "'A[(t + 1) % 2][i][j] = ...;' in perfectly nested loops, "
                  "after local scalars and their updates ('float acc = "
                  "...; acc += ...;')");
      Ok = false;
      return nullptr;
    }
    St = Body[0];
  }
  return St;
}

/// Cur's single statement (singleStatement): when it is a loop, appends it
/// to Loops, moves Cur to its body and returns true; otherwise leaves Cur
/// at that statement and returns false, with Ok false when singleStatement
/// refused the statement (and reported why).
bool Extractor::peelLoop(const clang::Stmt *&Cur,
                         std::vector<const clang::ForStmt *> &Loops,
                         bool &Ok) {
  Cur = singleStatement(Cur, Ok);
  if (!Ok)
    return false;
  const auto *F = dyn_cast<clang::ForStmt>(Cur);
  if (!F)
    return false;
  Loops.push_back(F);
  Cur = F->getBody();
  return true;
}

bool Extractor::collectNest(const clang::Stmt *Top,
                            std::vector<const clang::ForStmt *> &Loops,
                            const clang::Stmt *&Body) {
  const clang::Stmt *Cur = Top;
  bool Ok = true;
  while (peelLoop(Cur, Loops, Ok)) {
    // A time loop around exactly two loop nests: two arrays in turn
    // (ExtractTurns.cpp); the first nest is read here, the second later.
    const auto *CS = dyn_cast_or_null<clang::CompoundStmt>(Cur);
    // Several fields (ExtractFields.cpp), in one nest or several: read
    // after the time loop.
    if (Loops.size() == 1 && Cur) {
      std::vector<const clang::Stmt *> Body;
      if (CS)
        Body = timeStepStatements(CS);
      else
        Body.push_back(Cur);
      if (isSeveralFields(Body)) {
        S.Form = StencilForm::Fields;
        FieldBody = std::move(Body);
        break;
      }
    }
    if (Loops.size() == 1 && CS) {
      std::vector<const clang::Stmt *> Body = timeStepStatements(CS);
      // Int locals selecting the planes ('int cur = t % 2, nxt = 1 -
      // cur;'), then the loop nest.
      size_t Selectors = 0;
      while (Selectors + 1 < Body.size() && planeLocals(Body[Selectors]))
        ++Selectors;
      if (Selectors > 0 && Selectors + 1 == Body.size() &&
          isa<clang::ForStmt>(Body.back())) {
        for (size_t K = 0; K < Selectors; ++K)
          for (const clang::Decl *Dc :
               llvm::cast<clang::DeclStmt>(Body[K])->decls()) {
            const auto *V = llvm::cast<clang::VarDecl>(Dc);
            IntLocals[V] = V->getInit();
          }
        Cur = Body.back();
        continue;
      }
      bool TwoNests = Body.size() == 2 && isa<clang::ForStmt>(Body[0]) &&
                      isa<clang::ForStmt>(Body[1]);
      if (TwoNests) {
        S.Form = StencilForm::TwoArrays;
        SecondNest = Body[1];
        Cur = Body[0];
      } else if (Body.size() > 1 && isa<clang::ForStmt>(Body[0])) {
        // A loop nest, then a pointer swap (ExtractSwap.cpp).
        if (!recognizeSwap(Body))
          return false;
        if (S.Form == StencilForm::PointerSwap)
          Cur = Body[0];
      }
    }
  }
  if (!Ok)
    return false;
  if (S.Form == StencilForm::Fields) {
    Body = nullptr;
    return true;
  }
  if (Loops.empty()) {
    D.error(Reject::NotALoopNest, Top->getSourceRange(),
            std::string("the scop region must hold a 'for' loop nest: a time "
                        "loop around 1, 2 or 3 spatial loops") +
                (isa<clang::OMPExecutableDirective>(Top)
                     ? "; an OpenMP region around the time loop is not "
                       "read: put the directives on the spatial loops "
                       "('#pragma omp parallel for'), which an5dc looks "
                       "through"
                     : ""));
    return false;
  }
  if (Loops.size() < 2 || Loops.size() > 4) {
    D.error(Reject::Dimensionality, Loops[0]->getSourceRange(),
            "found " + std::to_string(Loops.size()) +
                " nested loops; an5dc handles a time loop around 1, 2 or 3 "
                "spatial loops (a 1D, 2D or 3D grid)");
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

void Extractor::loopsInArrayOrder() {
  const size_t N = S.Space.size();
  S.SpaceAsWritten.resize(N);
  for (size_t D = 0; D < N; ++D)
    S.SpaceAsWritten[D] = D;
  if (S.Write.Space.size() != N)
    return;
  // Loop K of Space is the one whose iterator alone is subscript K.
  std::vector<unsigned> LoopOf(N);
  std::vector<bool> Taken(N, false);
  for (size_t K = 0; K < N; ++K) {
    size_t Found = N;
    for (size_t L = 0; L < N; ++L)
      if (S.Write.Space[K] == AffineExpr::symbol(S.Space[L].Iter))
        Found = L;
    if (Found == N || Taken[Found])
      return; // not a permutation: the analysis says what is wrong
    Taken[Found] = true;
    LoopOf[K] = Found;
  }
  std::vector<Loop> Ordered(N);
  for (size_t K = 0; K < N; ++K) {
    Ordered[K] = S.Space[LoopOf[K]];
    S.SpaceAsWritten[LoopOf[K]] = K;
  }
  S.Space = std::move(Ordered);
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
  if (S.Form == StencilForm::Fields) {
    collectStencilVars(Top);
    if (!parseFields())
      return std::nullopt;
    return std::move(S);
  }
  S.Space.resize(Loops.size() - 1);
  for (size_t I = 1; I < Loops.size(); ++I)
    if (!parseLoop(Loops[I], S.Space[I - 1]))
      return std::nullopt;
  collectStencilVars(Top);
  if (!checkRectangular(Loops) || !parseAssignment(Body))
    return std::nullopt;
  if (SecondNest && !parseSecondNest())
    return std::nullopt;
  loopsInArrayOrder();
  if (!checkPlaneIndices())
    return std::nullopt;
  if ((S.Form == StencilForm::TwoArrays || S.Form == StencilForm::CopyBack) &&
      !finishTwoArrays())
    return std::nullopt;
  if (S.Form == StencilForm::PointerSwap && !finishPointerSwap())
    return std::nullopt;
  if (S.Space.size() == 1 && !liftOneDimension())
    return std::nullopt;
  return std::move(S);
}

// A 1D stencil runs as a 2D one whose outer (streaming) dimension holds one
// row: a loop an5d_row = 0 .. 0 in front of the user's, the subscript
// an5d_row first in every access, extent 1 first in every array. The layout
// in memory is the user's, so the host copies and the kernels need nothing
// else; the kernels block the user's dimension and stream one row.
bool Extractor::liftOneDimension() {
  // Earlier stages give every plane array its extent (a pointer swap's from
  // the rows it accesses) and flat pointers need two dimensions.
  for (const ArrayInfo &A : S.PlaneArrays) {
    (void)A;
    assert(A.Form != ArrayForm::FlatPointer && !A.Extents.empty() &&
           A.Extents.back() && "a 1D plane array without its extent");
  }
  const std::string Row = "an5d_row";
  Loop L;
  L.Iter = Row;
  L.Lower = AffineExpr::constant(0);
  L.Upper = AffineExpr::constant(0);
  L.Range = S.Space[0].Range;
  S.Space.insert(S.Space.begin(), L);
  S.SpaceAsWritten = {0, 1};
  S.VirtualDims = 1;
  auto lift = [&](Access &A) {
    A.Space.insert(A.Space.begin(), AffineExpr::symbol(Row));
  };
  lift(S.Write);
  for (Access &R : S.Reads)
    lift(R);
  auto addExtent = [](ArrayInfo &A, size_t At) {
    A.Extents.insert(A.Extents.begin() + At, AffineExpr::constant(1));
    A.ExtentText.insert(A.ExtentText.begin() + At, "1");
  };
  // The plane dimension first, then the new one (InPlace too: its one plane).
  addExtent(S.Array, 1);
  for (ArrayInfo &A : S.PlaneArrays)
    addExtent(A, 0);
  return true;
}

std::optional<Stencil> an5d::extractStencil(SourceSession &Session) {
  if (!Session.parsed())
    return std::nullopt;
  return Extractor(Session).run();
}
