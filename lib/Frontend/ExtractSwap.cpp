//===- ExtractSwap.cpp - A pointer swap in the time loop -------------------===//
//
// The time loop holds one loop nest, 'out[i][j] = f(in)', then a swap of
// the two pointers through a third, 'tmp = in; in = out; out = tmp;': one
// Jacobi step per iteration on a double buffer whose plane 0 is the array
// 'in' points to when the loop starts and plane 1 the one 'out' points to.
// The nest is read as two arrays in turn read their first nest
// (ExtractTurns.cpp); the generated code swaps the pointers back as the C
// loop leaves them.
//
//===----------------------------------------------------------------------===//
#include "Extractor.h"

using namespace an5d;
using namespace an5d::frontend;
using clang::dyn_cast;
using llvm::dyn_cast_or_null;

namespace {

/// The pointer variable E names, or null.
const clang::VarDecl *pointerVar(const clang::Expr *E) {
  const auto *Ref = dyn_cast_or_null<clang::DeclRefExpr>(
      E ? E->IgnoreParenImpCasts() : nullptr);
  const auto *V = Ref ? dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  return V && V->getType()->isPointerType() ? V : nullptr;
}

} // namespace

bool an5d::frontend::pointerCopy(const clang::Stmt *St,
                                 const clang::VarDecl *&Dst,
                                 const clang::VarDecl *&Src, bool &Declares) {
  Declares = false;
  if (const auto *DS = dyn_cast_or_null<clang::DeclStmt>(St)) {
    if (!DS->isSingleDecl())
      return false;
    Dst = dyn_cast<clang::VarDecl>(DS->getSingleDecl());
    Declares = true;
    Src = Dst ? pointerVar(Dst->getInit()) : nullptr;
    return Dst && Dst->getType()->isPointerType() && Src;
  }
  const auto *E = dyn_cast_or_null<clang::Expr>(St);
  const auto *BO =
      E ? dyn_cast<clang::BinaryOperator>(E->IgnoreParens()) : nullptr;
  if (!BO || BO->getOpcode() != clang::BO_Assign)
    return false;
  Dst = pointerVar(BO->getLHS());
  Src = pointerVar(BO->getRHS());
  return Dst && Src;
}

/// 'tmp = in; in = out; out = tmp;' (tmp possibly declared in the first),
/// or the rotation of three pointers 'tmp = a; a = b; b = c; c = tmp;'.
bool Extractor::matchSwap(llvm::ArrayRef<const clang::Stmt *> Sts, Swap &Out) {
  const size_t Count = Sts.size();
  if (Count != 3 && Count != 4)
    return false;
  const clang::VarDecl *Dst[4], *Src[4];
  bool Declares[4];
  for (size_t I = 0; I < Count; ++I)
    if (!pointerCopy(Sts[I], Dst[I], Src[I], Declares[I]))
      return false;
  // Each copy reads what the one before wrote; the last reads the temporary.
  for (size_t I = 1; I < Count; ++I)
    if (Declares[I] || Src[I - 1] != Dst[I])
      return false;
  if (Src[Count - 1] != Dst[0])
    return false;
  for (size_t I = 0; I < Count; ++I)
    for (size_t J = I + 1; J < Count; ++J)
      if (Dst[I] == Dst[J])
        return false;
  Out.Temp = Dst[0];
  Out.First = Dst[1];
  Out.Second = Dst[2];
  Out.Third = Count == 4 ? Dst[3] : nullptr;
  Out.TempDeclaredInLoop = Declares[0];
  return true;
}

bool Extractor::recognizeSwap(const std::vector<const clang::Stmt *> &Body) {
  llvm::ArrayRef<const clang::Stmt *> Rest(Body);
  Rest = Rest.drop_front();
  if (matchSwap(Rest, PointerSwap)) {
    S.Form = StencilForm::PointerSwap;
    return true;
  }
  for (const clang::Stmt *St : Rest) {
    const auto *If = dyn_cast<clang::IfStmt>(St);
    if (!If)
      continue;
    std::vector<const clang::Stmt *> Then;
    if (const auto *CS = dyn_cast_or_null<clang::CompoundStmt>(If->getThen()))
      Then.assign(CS->body_begin(), CS->body_end());
    else
      Then.push_back(If->getThen());
    Swap Ignored;
    const clang::VarDecl *Dst, *Src;
    bool Declares;
    if (matchSwap(Then, Ignored) ||
        (!Then.empty() && pointerCopy(Then[0], Dst, Src, Declares))) {
      D.error(Reject::NotDoubleBuffered, If->getSourceRange(),
              "the pointer swap is conditional, so the step that reads "
              "which array depends on the data; an5dc handles an "
              "unconditional swap right after the loop nest, "
              "'tmp = in; in = out; out = tmp;'");
      return false;
    }
  }
  return true; // not a swap: the nest's reader reports the statements
}

bool Extractor::finishRotation() {
  const clang::VarDecl *Ring[3] = {PointerSwap.First, PointerSwap.Second,
                                   PointerSwap.Third};
  for (unsigned Plane = 0; Plane < 3; ++Plane)
    if (!PlaneVars[Plane] &&
        !describePlaneArray(Ring[Plane], Ring[Plane]->getSourceRange(), Plane,
                            nullptr))
      return false;
  return true;
}

bool Extractor::copyRowsReached() {
  if (S.PlaneArrays[0].Extents[0])
    return true;
  const std::string &Row = S.Space[0].Iter;
  int64_t Reach = 0;
  std::vector<const Access *> All = {&S.Write};
  for (const Access &R : S.Reads)
    All.push_back(&R);
  for (const Access *A : All) {
    AffineExpr Off = A->Space[0] - AffineExpr::symbol(Row);
    for (size_t K = 1; K < S.Space.size() && !Off.isConstant(); ++K)
      if (A->Space[0].coeff(S.Space[K].Iter) != 0) {
        D.error(Reject::VariableOffset, A->Range,
                "this access of '" + S.arrayOf(*A) + "' is transposed: its "
                "first index follows '" + S.Space[K].Iter + "', where the "
                "written cell's follows '" + Row + "'; an5dc needs every "
                "read at a fixed offset from the written cell");
        return false;
      }
    if (!Off.isConstant()) {
      D.error(Reject::VariableOffset, A->Range,
              "the first index must be '" + Row + " + c' with a constant "
              "c: '" + S.arrayOf(*A) + "' declares no row count, so the "
              "rows its accesses reach are the rows copied to the GPU");
      return false;
    }
    Reach = std::max(Reach, Off.Constant);
  }
  AffineExpr Rows = S.Space[0].Upper + AffineExpr::constant(Reach + 1);
  for (ArrayInfo &P : S.PlaneArrays) {
    P.Extents[0] = Rows;
    P.ExtentText[0] = Rows.str();
  }
  return true;
}

bool Extractor::finishPointerSwap() {
  const clang::VarDecl *In = PointerSwap.First, *Out = PointerSwap.Second;
  if (PointerSwap.Third && !finishRotation())
    return false;
  bool Match = PointerSwap.Third ||
               (PlaneVars[0] == In && PlaneVars[1] == Out) ||
               (PlaneVars[0] == Out && PlaneVars[1] == In);
  if (!Match) {
    D.error(Reject::TurnMismatch, S.Write.Range,
            "the loop nest writes '" + S.PlaneArrays[1].Name + "'" +
                (PlaneVars[0] ? " and reads '" + S.PlaneArrays[0].Name + "'"
                              : std::string(" and reads no other array")) +
                ", but the swap after it exchanges '" + In->getName().str() +
                "' and '" + Out->getName().str() + "'; with a pointer swap "
                "the nest writes through one of the two pointers and reads "
                "through the other");
    return false;
  }
  if (!copyRowsReached())
    return false;
  S.Array = S.PlaneArrays[0];
  const std::string Planes = std::to_string(S.PlaneArrays.size());
  S.Array.Extents.insert(S.Array.Extents.begin(),
                         AffineExpr::constant(S.PlaneArrays.size()));
  S.Array.ExtentText.insert(S.Array.ExtentText.begin(), Planes);
  // The statement writes the last plane and reads the one before it.
  size_t Written = S.PlaneArrays.size() - 1;
  S.Statements = {{S.PlaneArrays[Written].Name,
                   S.PlaneArrays[Written - 1].Name,
                   clang::SourceRange(S.Write.Range.getBegin(),
                                      S.Update.Range.getEnd())}};
  if (!PointerSwap.TempDeclaredInLoop)
    S.SwapTemp = PointerSwap.Temp->getName().str();
  // Step s of the device reads plane s % 2: the first step reads plane 0.
  S.WrittenTime = S.Time;
  S.Time.Lower = AffineExpr::constant(0);
  S.Time.Upper = S.WrittenTime.Upper - S.WrittenTime.Lower;
  return true;
}
