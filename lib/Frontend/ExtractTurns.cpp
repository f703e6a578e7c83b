//===- ExtractTurns.cpp - Two arrays in turn -------------------------------===//
//
// The time loop holds two loop nests, 'B = f(A)' then 'A = f(B)' (PolyBench's
// jacobi-2d and heat-3d): one iteration is two Jacobi steps of one double
// buffer whose plane 0 is A and plane 1 is B. The first nest is read as the
// stencil, in the view of one two-plane array (the array a statement writes
// is plane (t + 1) % 2, the one it reads t % 2); the second must be the same
// update with the roles swapped, which is what makes the view exact, or a
// copy-back 'A[i][j] = B[i][j]' over the same cells (Jacobi with a copy).
//
//===----------------------------------------------------------------------===//
#include "Extractor.h"

#include <algorithm>

using namespace an5d;
using namespace an5d::frontend;
using clang::dyn_cast;

bool Extractor::describePlaneArray(const clang::VarDecl *V,
                                   clang::SourceRange Use, unsigned Plane,
                                   const std::vector<AffineExpr> *FlatExtents) {
  ArrayInfo A;
  if (!describeArrayType(V, Use, A))
    return false;
  // A flat pointer: rows of the lengths its index multiplies by.
  if (FlatExtents) {
    A.Form = ArrayForm::FlatPointer;
    for (size_t D = 1; D < FlatExtents->size(); ++D) {
      A.Extents.push_back((*FlatExtents)[D]);
      A.ExtentText.push_back((*FlatExtents)[D].str());
    }
  }
  if (A.Extents.size() != S.Space.size()) {
    D.error(Reject::Dimensionality, Use,
            "'" + A.Name + "' has " + std::to_string(A.Extents.size()) +
                " dimensions; two arrays in turn over " +
                std::to_string(S.Space.size()) +
                " spatial loops need one dimension per loop, e.g. "
                "'double A[n][m]'");
    D.note(V->getSourceRange(), "'" + A.Name + "' is declared here");
    return false;
  }
  // An array without a row count (a pointer to rows, a flat pointer)
  // reaches the rows its accesses reach (copyRowsReached).
  for (const ArrayInfo &Other : S.PlaneArrays)
    if (!Other.Name.empty() &&
        (Other.Elem != A.Elem || Other.Extents != A.Extents)) {
      D.error(Reject::TurnMismatch, Use,
              "'" + A.Name + "' and '" + Other.Name + "' differ in element "
              "type or extents; arrays in turn need arrays of one type and "
              "shape");
      D.note(V->getSourceRange(), "'" + A.Name + "' is declared here");
      D.note(Other.DeclRange, "'" + Other.Name + "' is declared here");
      return false;
    }
  S.PlaneArrays[Plane] = std::move(A);
  PlaneVars[Plane] = V;
  S.Elem = S.PlaneArrays[Plane].Elem;
  return true;
}

/// Statement k writes plane 1 - k and reads plane k; in the view both are
/// the plane (t + 1) % 2 it writes and the plane t % 2 it reads.
bool Extractor::parseTurnAccess(const clang::Expr *E, const clang::VarDecl *V,
                                const std::vector<const clang::Expr *> &Indices,
                                Access &A, bool IsWrite) {
  // Three pointers rotated: plane k is the k-th of the rotation (the
  // statement writes the last, level t + 2, and reads the others).
  const bool Rotation =
      S.Form == StencilForm::PointerSwap && PointerSwap.Third != nullptr;
  S.PlaneArrays.resize(Rotation ? 3 : 2);
  const unsigned Own = Rotation ? 2 : 1 - StatementIndex,
                 Other = StatementIndex;
  // A flat pointer's one index splits into one per dimension.
  std::vector<AffineExpr> FlatSpace, FlatExtents;
  const bool Flat =
      isFlatPointer(V) && Indices.size() == 1 && S.Space.size() > 1;
  if (Flat && !splitFlatIndex(V, Indices[0], S.Space, FlatSpace, FlatExtents))
    return false;
  const std::vector<AffineExpr> *FlatShape = Flat ? &FlatExtents : nullptr;
  bool Written = false;
  // The access's plane in the view, and how many planes it cycles through.
  unsigned Plane = 0;
  int64_t Modulus = 2;
  if (Rotation) {
    const clang::VarDecl *Ring[3] = {PointerSwap.First, PointerSwap.Second,
                                     PointerSwap.Third};
    Plane = std::find(Ring, Ring + 3, V) - Ring;
    if (Plane == 3) {
      D.error(Reject::MultipleArrays, E->getSourceRange(),
              "reads array '" + V->getName().str() + "'; with three pointers "
              "rotated the nest reads through them only ('" +
                  Ring[0]->getName().str() + "', '" +
                  Ring[1]->getName().str() + "')");
      return false;
    }
    if (IsWrite && Plane != 2) {
      D.error(Reject::TurnMismatch, E->getSourceRange(),
              "the nest writes through '" + V->getName().str() +
                  "'; with three pointers rotated ('tmp = " +
                  Ring[0]->getName().str() + "; " + Ring[0]->getName().str() +
                  " = " + Ring[1]->getName().str() + "; ...') it writes "
                  "through the last, '" + Ring[2]->getName().str() + "'");
      return false;
    }
    if (!PlaneVars[Plane] &&
        !describePlaneArray(V, E->getSourceRange(), Plane, FlatShape))
      return false;
    Modulus = 3;
  } else if (IsWrite) {
    if (!PlaneVars[Own]) {
      if (!describePlaneArray(V, E->getSourceRange(), Own, FlatShape))
        return false;
    } else if (V != PlaneVars[Own]) {
      D.error(Reject::TurnMismatch, E->getSourceRange(),
              "the second loop nest writes '" + V->getName().str() +
                  "'; two arrays in turn write, in the second nest, the "
                  "array the first nest reads ('" +
                  S.PlaneArrays[Own].Name + "')");
      return false;
    }
    Written = true;
  } else if (V == PlaneVars[Own]) {
    // Reading the array being written: the analysis says what order that is.
    Written = true;
  } else if (!PlaneVars[Other]) {
    if (!describePlaneArray(V, E->getSourceRange(), Other, FlatShape))
      return false;
  } else if (V != PlaneVars[Other]) {
    D.error(Reject::MultipleArrays, E->getSourceRange(),
            "reads array '" + V->getName().str() + "'; with two arrays in "
            "turn each loop nest reads only the array the other writes ('" +
                S.PlaneArrays[Other].Name + "' here)");
    return false;
  }
  if (!Rotation)
    Plane = Written ? 1 : 0;
  const int64_t Shift = Plane;
  if (Flat) {
    // Every access of the pointers must split with the same rows.
    const ArrayInfo &Info =
        S.PlaneArrays[Rotation ? Plane : V == PlaneVars[Own] ? Own : Other];
    for (size_t Dm = 1; Dm < FlatExtents.size(); ++Dm)
      if (Info.Form != ArrayForm::FlatPointer || !Info.Extents[Dm] ||
          !(*Info.Extents[Dm] == FlatExtents[Dm])) {
        D.error(Reject::TurnMismatch, Indices[0]->getSourceRange(),
                "this index splits into rows of " + FlatExtents[Dm].str() +
                    " elements along '" + S.Space[Dm].Iter + "', '" +
                    Info.Name + "' into rows of " +
                    (Info.Extents[Dm] ? Info.Extents[Dm]->str()
                                     : std::string("unknown")) +
                    " elements; every access of the two pointers needs the same row "
                    "lengths");
        return false;
      }
    A.Range = E->getSourceRange();
    A.TimeBase = AffineExpr::symbol(S.Time.Iter) + AffineExpr::constant(Shift);
    A.Modulus = Modulus;
    A.SignedRemainder = false;
    A.Space = std::move(FlatSpace);
    return true;
  }
  if (Indices.size() != S.Space.size()) {
    D.error(Reject::Dimensionality, E->getSourceRange(),
            "'" + V->getName().str() + "' is indexed with " +
                std::to_string(Indices.size()) + " subscripts; expected " +
                std::to_string(S.Space.size()) + " (one per spatial loop)");
    return false;
  }
  A.Range = E->getSourceRange();
  A.TimeBase = AffineExpr::symbol(S.Time.Iter) + AffineExpr::constant(Shift);
  A.Modulus = Modulus;
  A.SignedRemainder = false; // the view's planes: 0 .. Modulus - 1 for every t
  for (const clang::Expr *I : Indices) {
    std::optional<AffineExpr> X = toAffine(I);
    if (!X)
      return false;
    A.Space.push_back(*X);
  }
  return true;
}

bool Extractor::sameLoops(const std::vector<const clang::ForStmt *> &Loops,
                          const std::vector<Loop> &Second, bool Copy) {
  for (size_t I = 0; I < Second.size(); ++I) {
    const Loop &A = S.Space[I], &B = Second[I];
    if (A.Iter == B.Iter && A.Lower == B.Lower && A.Upper == B.Upper)
      continue;
    D.error(Reject::TurnMismatch, Loops[I]->getSourceRange(),
            "this loop runs '" + B.Iter + "' from " + B.Lower.str() + " to " +
                B.Upper.str() + ", the first nest's loop '" + A.Iter +
                "' from " + A.Lower.str() + " to " + A.Upper.str() +
                (Copy ? "; a copy-back must copy exactly the cells the first "
                        "nest computes, in loops like the first nest's"
                      : "; two arrays in turn need the same loops in both "
                        "nests"));
    D.note(A.Range, "the first nest's loop");
    return false;
  }
  return true;
}

namespace {

bool sameAccess(const Access &A, const Access &B) {
  return A.TimeBase == B.TimeBase && A.Space == B.Space;
}

/// The reads of one statement: of the stencil arrays and of coefficients.
struct StatementReads {
  const std::vector<Access> &Array;
  const std::vector<CoefAccess> &Coef;
};

bool sameCoefAccess(const CoefAccess &A, const CoefAccess &B) {
  if (A.Array != B.Array || A.Index.size() != B.Index.size())
    return false;
  for (size_t D = 0; D < A.Index.size(); ++D)
    if (A.Index[D].Iter != B.Index[D].Iter ||
        A.Index[D].Offset != B.Index[D].Offset)
      return false;
  return true;
}

/// The first node (pre-order) of B that differs from its counterpart in A,
/// or null; Counterpart is then A's node.
const Expr *firstDifference(const Expr &A, const StatementReads &RA,
                            const Expr &B, const StatementReads &RB,
                            const Expr *&Counterpart) {
  bool Same = A.K == B.K && A.Type == B.Type && A.Text == B.Text &&
              A.Args.size() == B.Args.size() &&
              A.ParamTypes == B.ParamTypes &&
              (A.K != Expr::Read ||
               sameAccess(RA.Array[A.ReadIndex], RB.Array[B.ReadIndex])) &&
              (A.K != Expr::CoefRead ||
               sameCoefAccess(RA.Coef[A.ReadIndex], RB.Coef[B.ReadIndex]));
  if (!Same) {
    Counterpart = &A;
    return &B;
  }
  for (size_t I = 0; I < A.Args.size(); ++I)
    if (const Expr *D = firstDifference(A.Args[I], RA, B.Args[I], RB,
                                        Counterpart))
      return D;
  return nullptr;
}

} // namespace

bool Extractor::sameUpdate(const Expr &First,
                           const std::vector<Access> &FirstReads,
                           const std::vector<CoefAccess> &FirstCoefs,
                           const Expr &Second,
                           const std::vector<Access> &SecondReads) {
  const Expr *Counterpart = nullptr;
  const Expr *Diff =
      firstDifference(First, {FirstReads, FirstCoefs}, Second,
                      {SecondReads, S.CoefReads}, Counterpart);
  if (!Diff)
    return true;
  const std::string &Own = S.PlaneArrays[0].Name;
  const std::string &Other = S.PlaneArrays[1].Name;
  // Own: the array the second nest writes; Other: the one it reads. A read
  // of the array its own nest writes is reported in that nest.
  auto ownRead = [](const Expr &E, const std::vector<Access> &Reads) {
    return E.K == Expr::Read &&
           (Reads[E.ReadIndex].TimeBase.Constant % 2) == 1;
  };
  if (ownRead(*Counterpart, FirstReads)) {
    D.error(Reject::TurnMismatch, Counterpart->Range,
            "the first loop nest reads '" + Other + "', the array it writes; "
            "each nest must read only the array the other writes ('" + Own +
                "' here)");
    D.note(Diff->Range, "the second nest reads '" + Other + "' here");
    return false;
  }
  if (ownRead(*Diff, SecondReads)) {
    D.error(Reject::TurnMismatch, Diff->Range,
            "the second loop nest reads '" + Own + "', the array it writes; "
            "each nest must read only the array the other writes ('" +
                Other + "' here)");
  } else {
    D.error(Reject::TurnMismatch, Diff->Range,
            "the second loop nest's update differs from the first's here; "
            "two arrays in turn need the same update in both nests with the "
            "arrays' roles swapped ('" + Other + "[...] = f(" + Own +
                "); " + Own + "[...] = f(" + Other + ");')");
  }
  D.note(Counterpart->Range, "the first nest has '" +
                                 spelling(Counterpart->Range) + "' here");
  return false;
}

bool Extractor::parseSecondNest() {
  if (!PlaneVars[0]) {
    D.error(Reject::MultipleArrays, S.Write.Range,
            "the first loop nest reads no array but '" +
                S.PlaneArrays[1].Name + "', which it writes; two arrays in "
                "turn compute each array from the other, 'B[i][j] = f(A); "
                "A[i][j] = f(B);' with the same update f");
    return false;
  }
  std::vector<const clang::ForStmt *> Loops;
  const clang::Stmt *Cur = SecondNest;
  bool Ok = true;
  while (peelLoop(Cur, Loops, Ok))
    ;
  if (!Ok)
    return false;
  if (Loops.size() != S.Space.size()) {
    D.error(Reject::TurnMismatch, SecondNest->getSourceRange(),
            "this loop nest has " + std::to_string(Loops.size()) +
                " loops and the first " + std::to_string(S.Space.size()) +
                "; two arrays in turn need the same loops in both nests");
    return false;
  }
  // The second nest may declare the spatial iterators again.
  for (auto It = Iterators.begin(); It != Iterators.end();)
    It = It->second == S.Time.Iter ? std::next(It) : Iterators.erase(It);
  std::vector<Loop> Second(Loops.size());
  for (size_t I = 0; I < Loops.size(); ++I)
    if (!parseLoop(Loops[I], Second[I]))
      return false;
  // Statement 1 is read into the stencil's fields, compared, and dropped.
  Access FirstWrite = std::move(S.Write);
  std::vector<Access> FirstReads = std::move(S.Reads);
  Expr FirstUpdate = std::move(S.Update);
  std::vector<CoefAccess> FirstCoefs = std::move(S.CoefReads);
  S.Write = Access();
  S.Reads.clear();
  S.CoefReads.clear();
  StatementIndex = 1;
  if (!parseAssignment(Cur))
    return false;
  // 'A[i][j] = B[i][j]': a copy-back of the cell the first nest computed
  // (a read of plane 0 in the second statement's view is of B).
  const bool Copy = S.Update.K == Expr::Read && S.CoefReads.empty() &&
                    S.Reads.size() == 1;
  if (!sameLoops(Loops, Second, Copy))
    return false;
  const std::string CopyText = "'" + S.PlaneArrays[0].Name + "[i][j] = " +
                               S.PlaneArrays[1].Name + "[i][j];'";
  if (Copy && (S.Reads[0].TimeBase.Constant % 2 != 0 ||
               S.Reads[0].Space != S.Write.Space)) {
    D.error(Reject::TurnMismatch, S.Reads[0].Range,
            "a copy-back copies each cell the first nest computes to the "
            "same cell of the array that nest reads, " + CopyText);
    return false;
  }
  if (Copy && S.Write.Space != FirstWrite.Space) {
    D.error(Reject::TurnMismatch, S.Write.Range,
            "this copy-back writes other cells than the first nest "
            "computes; a copy-back copies each computed cell to where it "
            "was computed, " + CopyText);
    D.note(FirstWrite.Range, "the first nest writes here");
    return false;
  }
  if (S.Write.Space != FirstWrite.Space) {
    D.error(Reject::TurnMismatch, S.Write.Range,
            "this write is not at the first nest's cell; two arrays in turn "
            "need the same update in both nests with the arrays' roles "
            "swapped");
    D.note(FirstWrite.Range, "the first nest writes here");
    return false;
  }
  if (Copy)
    S.Form = StencilForm::CopyBack;
  else if (!sameUpdate(FirstUpdate, FirstReads, FirstCoefs, S.Update, S.Reads))
    return false;
  S.Statements = {
      {S.PlaneArrays[1].Name, S.PlaneArrays[0].Name,
       clang::SourceRange(FirstWrite.Range.getBegin(),
                          FirstUpdate.Range.getEnd())},
      {S.PlaneArrays[0].Name, S.PlaneArrays[1].Name,
       clang::SourceRange(S.Write.Range.getBegin(),
                          S.Update.Range.getEnd())}};
  // An iterator declared before either nest ends as both leave it.
  for (size_t I = 0; I < Second.size(); ++I)
    S.Space[I].IterDeclaredOutside |= Second[I].IterDeclaredOutside;
  S.Write = std::move(FirstWrite);
  S.Reads = std::move(FirstReads);
  S.CoefReads = std::move(FirstCoefs);
  S.Update = std::move(FirstUpdate);
  return true;
}

/// The view as one two-plane array, and the device's loop over Jacobi
/// steps. Two arrays in turn: iteration t runs steps 2t (plane 0 to 1) and
/// 2t + 1 (1 to 0). A copy-back: step s is iteration s + lo, from plane
/// s % 2 to the other; since both planes start as A and the copy makes A
/// what the step wrote, the planes in turn are exactly A from step to step.
bool Extractor::finishTwoArrays() {
  if (!copyRowsReached())
    return false;
  S.Array = S.PlaneArrays[0];
  S.Array.Extents.insert(S.Array.Extents.begin(), AffineExpr::constant(2));
  S.Array.ExtentText.insert(S.Array.ExtentText.begin(), "2");
  S.WrittenTime = S.Time;
  if (S.Form == StencilForm::CopyBack) {
    S.Time.Lower = AffineExpr::constant(0);
    S.Time.Upper = S.WrittenTime.Upper - S.WrittenTime.Lower;
    return true;
  }
  S.Time.Lower = S.WrittenTime.Lower.scaled(2);
  S.Time.Upper = S.WrittenTime.Upper.scaled(2) + AffineExpr::constant(1);
  return true;
}
