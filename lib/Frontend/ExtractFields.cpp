//===- ExtractFields.cpp - Several fields updated in one time step ---------===//
//
// A time loop whose body assigns several arrays (fdtd-2d's ey, ex and hz;
// a coupled u, v): every assignment is a statement of its own with its own
// loop nest, bounds and update, run in program order each step. A field is
// updated in place ('ey[i][j] = ey[i][j] - ...') or through a plane index
// ('u[(t + 1) % 2][i][j] = ...'). The analysis decides which of these the
// cells of a nest may compute in parallel; here only the form is read.
//
//===----------------------------------------------------------------------===//
#include "Extractor.h"

#include <algorithm>

using namespace an5d;
using namespace an5d::frontend;
using clang::dyn_cast;
using clang::isa;
using llvm::dyn_cast_or_null;

namespace {

/// The variable an assignment's left-hand side subscripts, or null.
const clang::VarDecl *assignedBase(const clang::BinaryOperator *BO) {
  const clang::Expr *Base = BO->getLHS()->IgnoreParens();
  if (!isa<clang::ArraySubscriptExpr>(Base))
    return nullptr;
  while (const auto *Sub = dyn_cast<clang::ArraySubscriptExpr>(Base))
    Base = Sub->getBase()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<clang::DeclRefExpr>(Base);
  return Ref ? dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
}

/// The arrays whose elements St assigns (through loops and braces), in
/// order with repeats, and how many assignments there are.
void assignedArrays(const clang::Stmt *St,
                    std::vector<const clang::VarDecl *> &Out,
                    unsigned &Assignments) {
  St = withoutOmpLoopDirectives(St);
  if (!St)
    return;
  if (const auto *F = dyn_cast<clang::ForStmt>(St))
    return assignedArrays(F->getBody(), Out, Assignments);
  if (const auto *CS = dyn_cast<clang::CompoundStmt>(St)) {
    for (const clang::Stmt *C : CS->body())
      assignedArrays(C, Out, Assignments);
    return;
  }
  const auto *E = dyn_cast<clang::Expr>(St);
  const auto *BO =
      E ? dyn_cast<clang::BinaryOperator>(E->IgnoreParens()) : nullptr;
  if (!BO || !BO->isAssignmentOp())
    return;
  if (const clang::VarDecl *V = assignedBase(BO)) {
    Out.push_back(V);
    ++Assignments;
  }
}

/// St names V anywhere but as the array an assignment writes.
bool readsVar(const clang::Stmt *St, const clang::VarDecl *V) {
  if (!St)
    return false;
  if (const auto *Ref = dyn_cast<clang::DeclRefExpr>(St))
    return Ref->getDecl() == V;
  if (const auto *BO = dyn_cast<clang::BinaryOperator>(St))
    if (BO->isAssignmentOp() && assignedBase(BO) == V) {
      if (readsVar(BO->getRHS(), V))
        return true;
      const clang::Expr *L = BO->getLHS()->IgnoreParens();
      while (const auto *Sub = dyn_cast<clang::ArraySubscriptExpr>(L)) {
        if (readsVar(Sub->getIdx(), V))
          return true;
        L = Sub->getBase()->IgnoreParenImpCasts();
      }
      return false;
    }
  for (const clang::Stmt *C : St->children())
    if (readsVar(C, V))
      return true;
  return false;
}

/// E selects a plane with the time iterator: '(t + 1) % 2', 't & 1'.
bool selectsTimePlane(const clang::Expr *E, const clang::VarDecl *Time) {
  const auto *B = dyn_cast<clang::BinaryOperator>(E->IgnoreParenImpCasts());
  return B && Time &&
         (B->getOpcode() == clang::BO_Rem || B->getOpcode() == clang::BO_And) &&
         readsVar(B->getLHS(), Time);
}

/// "[i][j]", or with Fixed "[0][j]": a cell of a grid of Dims dimensions.
std::string cellExample(unsigned Dims, bool Fixed) {
  const char *Names[] = {"i", "j", "k"};
  std::string R;
  for (unsigned D = 0; D < Dims; ++D)
    R += std::string("[") + (Fixed && D == 0 ? "0" : Names[D + 3 - Dims]) +
         "]";
  return R;
}

} // namespace

/// Body, the time loop's statements, assign two or more arrays and are not
/// two arrays in turn (two nests, each computing its array from the
/// other's alone).
bool Extractor::isSeveralFields(const std::vector<const clang::Stmt *> &Body) {
  std::vector<const clang::VarDecl *> Arrays;
  unsigned Assignments = 0;
  for (const clang::Stmt *St : Body)
    assignedArrays(St, Arrays, Assignments);
  std::vector<const clang::VarDecl *> Distinct;
  for (const clang::VarDecl *V : Arrays)
    if (!llvm::is_contained(Distinct, V))
      Distinct.push_back(V);
  if (Distinct.size() < 2)
    return false;
  bool TwoNests = Body.size() == 2 && isa<clang::ForStmt>(Body[0]) &&
                  isa<clang::ForStmt>(Body[1]);
  if (TwoNests && Assignments == 2 && Arrays[0] != Arrays[1] &&
      !readsVar(Body[0], Arrays[0]) && !readsVar(Body[1], Arrays[1]))
    return false;
  return true;
}

bool Extractor::parseFields() {
  S.WrittenTime = S.Time;
  const clang::VarDecl *TimeVar = nullptr;
  for (const auto &[Var, Iter] : Iterators)
    if (Iter == S.Time.Iter)
      TimeVar = Var;
  // Pointer swaps after the nests: each swapped pair is one field.
  size_t NestEnd = FieldBody.size();
  for (size_t I = 0; I < FieldBody.size() && NestEnd == FieldBody.size(); ++I) {
    const clang::VarDecl *Dst, *Src;
    bool Declares;
    if (pointerCopy(FieldBody[I], Dst, Src, Declares))
      NestEnd = I;
  }
  if (NestEnd < FieldBody.size() && !parseFieldSwaps(NestEnd))
    return false;
  for (unsigned Nest = 0; Nest < NestEnd; ++Nest) {
    // Each nest declares its own iterators; names repeat across nests.
    Iterators.clear();
    Iterators[TimeVar] = S.Time.Iter;
    if (!parseFieldNest(FieldBody[Nest], Nest))
      return false;
  }
  // The grid's dimensions take the names of the first nest spanning them.
  const FieldStatement *Naming = nullptr;
  for (const FieldStatement &F : S.FieldStatements)
    if (!Naming && F.Loops.size() == S.GridDims)
      Naming = &F;
  if (!Naming) {
    D.error(Reject::Dimensionality, S.NestRange,
            "no loop nest of the time step runs over all " +
                std::to_string(S.GridDims) + " dimensions of the fields; "
                "an5dc needs at least one nest with a loop per dimension");
    return false;
  }
  S.Space = Naming->Loops;
  gridRows();
  return true;
}

/// 'tmp = u; u = un; un = tmp;' per field after the nests of the step:
/// the nests write one of the two pointers and read through the other, so
/// the two arrays are the field's two planes, the read one plane 0.
bool Extractor::parseFieldSwaps(size_t First) {
  std::vector<const clang::VarDecl *> Written;
  unsigned Assignments = 0;
  for (size_t I = 0; I < First; ++I)
    assignedArrays(FieldBody[I], Written, Assignments);
  for (size_t I = First; I < FieldBody.size(); I += 3) {
    llvm::ArrayRef<const clang::Stmt *> Rest(FieldBody);
    Rest = Rest.slice(I, std::min<size_t>(3, FieldBody.size() - I));
    Swap W;
    if (Rest.size() < 3 || !matchSwap(Rest, W)) {
      D.error(Reject::SeveralFields, FieldBody[I]->getSourceRange(),
              "after the loop nests of a time step of several fields an5dc "
              "accepts swaps of two pointers, one per field, as 'tmp = u; "
              "u = un; un = tmp;'; this statement is not part of one");
      return false;
    }
    const bool FirstWritten = llvm::is_contained(Written, W.First),
               SecondWritten = llvm::is_contained(Written, W.Second);
    if (FirstWritten == SecondWritten) {
      D.error(Reject::TurnMismatch, FieldBody[I]->getSourceRange(),
              "the swap exchanges '" + W.First->getName().str() + "' and '" +
                  W.Second->getName().str() + "', but the loop nests write " +
                  (FirstWritten ? "through both" : "through neither") +
                  "; with a pointer swap the step writes through one of the "
                  "two pointers and reads through the other");
      return false;
    }
    FieldSwap F;
    F.In = FirstWritten ? W.Second : W.First;
    F.Out = FirstWritten ? W.First : W.Second;
    F.Temp = W.Temp;
    // One temporary may serve every swap, declared by the first: only one
    // declared before the time loop outlives it.
    F.TempDeclaredInLoop = !isBefore(W.Temp->getLocation(),
                                     FieldBody.front()->getBeginLoc());
    F.Order = (I - First) / 3;
    for (const clang::VarDecl *V : {F.In, F.Out})
      if (FieldSwapOf.count(V)) {
        D.error(Reject::SeveralFields, FieldBody[I]->getSourceRange(),
                "'" + V->getName().str() + "' is swapped twice in one time "
                "step; swap each field's pointers once");
        return false;
      }
    FieldSwapOf[F.In] = F;
    FieldSwapOf[F.Out] = F;
  }
  return true;
}

/// A field whose first grid extent is not declared (a pointer, 'double
/// *v' or 'double (*u)[m]') takes the rows the statements access in it:
/// the largest first subscript + 1, as host code ('an5d_max_rows' of the
/// candidates whose variable parts differ).
void Extractor::gridRows() {
  for (size_t Fd = 0; Fd < S.Fields.size(); ++Fd)
    fieldRows(Fd);
}

void Extractor::fieldRows(size_t Field) {
  std::map<std::map<std::string, int64_t>, int64_t> Highest;
  auto top = [&](const FieldStatement &F, const Access &A) {
    if (A.Field != Field)
      return;
    const AffineExpr &X = A.Space[0];
    AffineExpr T = AffineExpr::constant(X.Constant + 1);
    for (const auto &[Sym, Coeff] : X.Coeffs) {
      const Loop *L = nullptr;
      for (const Loop &Lp : F.Loops)
        if (Lp.Iter == Sym)
          L = &Lp;
      // Write subscripts are iterators (coefficient 1), reads add a
      // constant: a loop's upper bound is the subscript's largest value.
      T = T + (L ? L->Upper.scaled(Coeff) : AffineExpr::symbol(Sym).scaled(Coeff));
    }
    auto [It, New] = Highest.emplace(T.Coeffs, T.Constant);
    if (!New)
      It->second = std::max(It->second, T.Constant);
  };
  for (const FieldStatement &F : S.FieldStatements) {
    top(F, F.Write);
    for (unsigned R = F.FirstRead; R < F.EndRead; ++R)
      top(F, S.Reads[R]);
  }
  std::string Rows;
  for (const auto &[Coeffs, Constant] : Highest) {
    AffineExpr T = AffineExpr::constant(Constant);
    T.Coeffs = Coeffs;
    std::string X = "(long)(" + T.str() + ")";
    Rows = Rows.empty() ? X : "an5d_max_rows(" + Rows + ", " + X + ")";
  }
  FieldInfo &F = S.Fields[Field];
  size_t First = F.Planes - 1;
  if (!F.Array.Extents[First])
    F.Array.ExtentText[First] = Rows;
}

bool Extractor::parseFieldNest(const clang::Stmt *St, unsigned Nest) {
  std::vector<const clang::ForStmt *> Fors;
  const clang::Stmt *Cur = St;
  for (;;) {
    // Braces around one statement and OpenMP loop directives are looked
    // through.
    Cur = withoutOmpLoopDirectives(Cur);
    while (const auto *CS = dyn_cast<clang::CompoundStmt>(Cur)) {
      std::vector<const clang::Stmt *> Inner;
      for (const clang::Stmt *C : CS->body())
        if (!isa<clang::NullStmt>(C))
          Inner.push_back(C);
      if (Inner.size() != 1)
        break;
      Cur = withoutOmpLoopDirectives(Inner[0]);
    }
    const auto *F = dyn_cast<clang::ForStmt>(Cur);
    if (!F)
      break;
    Fors.push_back(F);
    Cur = F->getBody();
  }
  std::vector<const clang::Stmt *> Statements;
  if (const auto *CS = dyn_cast<clang::CompoundStmt>(Cur)) {
    for (const clang::Stmt *C : CS->body())
      if (!isa<clang::NullStmt>(C))
        Statements.push_back(C);
  } else {
    Statements.push_back(Cur);
  }
  // Local scalars declared before the nest's first assignment stand for
  // their initializers (LocalTemps); checked below against the
  // assignments between them and their uses.
  size_t Temps = collectLocals(Statements);
  Statements.erase(Statements.begin(), Statements.begin() + Temps);
  if (Statements.empty()) {
    D.error(Reject::NotALoopNest, Cur->getSourceRange(),
            "empty loop body; each loop nest of the time step must assign a "
            "field");
    return false;
  }
  for (const clang::Stmt *X : Statements)
    if (isa<clang::ForStmt>(X) || isa<clang::CompoundStmt>(X)) {
      D.error(Reject::NotALoopNest, X->getSourceRange(),
              "this loop nest is not perfectly nested: its innermost loop "
              "holds assignments and another loop; give each loop nest of "
              "the time step its assignments in its innermost loop only");
      return false;
    }
  if (Fors.size() > 3) {
    D.error(Reject::Dimensionality, Fors[0]->getSourceRange(),
            "found " + std::to_string(Fors.size()) +
                " nested spatial loops; an5dc handles 1, 2 or 3");
    return false;
  }
  std::vector<Loop> Loops(Fors.size());
  for (size_t I = 0; I < Fors.size(); ++I) {
    if (!parseLoop(Fors[I], Loops[I]))
      return false;
    for (const AffineExpr *B : {&Loops[I].Lower, &Loops[I].Upper}) {
      std::string Outer = B->coeff(S.Time.Iter) ? S.Time.Iter : "";
      for (size_t K = 0; K < I; ++K)
        if (B->coeff(Loops[K].Iter))
          Outer = Loops[K].Iter;
      if (!Outer.empty()) {
        D.error(Reject::LoopForm, Fors[I]->getSourceRange(),
                "the bounds of loop '" + Loops[I].Iter + "' depend on '" +
                    Outer + "'; an5dc needs each loop nest over a box whose "
                    "bounds use only parameters and constants");
        return false;
      }
    }
  }
  // Coefficient reads name the nest's iterators.
  S.Space = Loops;
  const size_t FirstStatement = S.FieldStatements.size();
  for (const clang::Stmt *X : Statements)
    if (!parseFieldStatement(X, Nest, Loops))
      return false;
  // C computed a local before the nest's assignments; at a use after one
  // that wrote what the local reads it would see the new value, which C's
  // local does not hold.
  for (size_t K = FirstStatement + 1; K < S.FieldStatements.size(); ++K) {
    const FieldStatement &Use = S.FieldStatements[K];
    for (size_t R = Use.FirstRead; R < Use.EndRead; ++R) {
      if (!LocalTempReads.count(R))
        continue;
      const Access &Rd = S.Reads[R];
      for (size_t J = FirstStatement; J < K; ++J) {
        const Access &W = S.FieldStatements[J].Write;
        if (W.Field != Rd.Field || !(W.TimeBase == Rd.TimeBase))
          continue;
        const std::string &Name = S.Fields[Rd.Field].Array.Name;
        D.error(Reject::SeveralFields, Rd.Range,
                "a local declared before the assignment to '" + Name +
                    "' reads it, and this statement uses the local after "
                    "that assignment; an5dc puts a local's value in at its "
                    "uses, so read '" + Name + "' in the statements before "
                    "the assignment, or compute the local from other "
                    "fields");
        D.note(S.FieldStatements[J].Range, "the assignment is here");
        return false;
      }
    }
  }
  return true;
}

bool Extractor::parseFieldStatement(const clang::Stmt *St, unsigned Nest,
                                    const std::vector<Loop> &Loops) {
  const auto *E = dyn_cast<clang::Expr>(St);
  const auto *BO = E ? dyn_cast<clang::BinaryOperator>(E->IgnoreParens())
                     : nullptr;
  if (const auto *CA = dyn_cast_or_null<clang::CompoundAssignOperator>(BO)) {
    D.error(Reject::UnsupportedExpr, CA->getSourceRange(),
            "compound assignment '" + CA->getOpcodeStr().str() +
                "'; write the whole update, 'ey[i][j] = ey[i][j] - ...'");
    return false;
  }
  if (!BO || BO->getOpcode() != clang::BO_Assign || !assignedBase(BO)) {
    D.error(Reject::NotALoopNest, St->getSourceRange(),
            "a time step of several fields holds loop nests whose innermost "
            "loops assign array elements, 'ey[i][j] = ...;'; this statement "
            "is none of them");
    return false;
  }
  FieldStatement F;
  F.Nest = Nest;
  F.Loops = Loops;
  F.Range = BO->getSourceRange();
  if (!parseAccess(BO->getLHS(), F.Write, /*IsWrite=*/true))
    return false;
  F.Field = F.Write.Field;
  F.FirstRead = S.Reads.size();
  F.FirstCoefRead = S.CoefReads.size();
  std::optional<Expr> U = toExpr(BO->getRHS());
  if (!U)
    return false;
  F.Update = std::move(*U);
  F.EndRead = S.Reads.size();
  F.EndCoefRead = S.CoefReads.size();
  const std::string &Name = S.Fields[F.Field].Array.Name;

  // The write: each grid dimension a loop of the nest, in loop order, or a
  // constant; every loop used.
  int NextLoop = 0;
  for (const AffineExpr &X : F.Write.Space) {
    bool Fixed = true; // no iterator: a constant or sizes ('p[mid]')
    for (const Loop &L : Loops)
      Fixed = Fixed && X.coeff(L.Iter) == 0;
    if (Fixed) {
      F.LoopOf.push_back(-1);
      continue;
    }
    int Found = -1;
    for (size_t K = 0; K < Loops.size(); ++K)
      if (X == AffineExpr::symbol(Loops[K].Iter))
        Found = K;
    if (Found < NextLoop) {
      D.error(Reject::WriteNotOwnCell, F.Write.Range,
              "the write must name the cell of the loop nest: each subscript "
              "one of its iterators, in the order of its loops, or a "
              "constant, as '" + Name + cellExample(S.GridDims, false) +
                  "' or '" + Name + cellExample(S.GridDims, true) + "'");
      return false;
    }
    F.LoopOf.push_back(Found);
    NextLoop = Found + 1;
  }
  for (size_t K = 0; K < Loops.size(); ++K)
    if (!llvm::is_contained(F.LoopOf, (int)K)) {
      D.error(Reject::WriteNotOwnCell, F.Write.Range,
              "the write does not use loop '" + Loops[K].Iter +
                  "': every iteration of the nest would assign the same "
                  "element; index the write with every iterator of its nest");
      return false;
    }
  // Reads at a constant offset from the write, along every dimension.
  for (unsigned R = F.FirstRead; R < F.EndRead; ++R) {
    const Access &A = S.Reads[R];
    for (size_t Dm = 0; Dm < A.Space.size(); ++Dm)
      if (!(A.Space[Dm] - F.Write.Space[Dm]).isConstant()) {
        D.error(Reject::VariableOffset, A.Range,
                "this read is not at a fixed offset from the cell the "
                "statement writes ('" + F.Write.str(Name) +
                    "'): subscript " + std::to_string(Dm + 1) +
                    " differs from the write's by '" +
                    (A.Space[Dm] - F.Write.Space[Dm]).str() + "'");
        return false;
      }
  }
  // A field with planes is written at one plane of the step.
  const FieldInfo &Field = S.Fields[F.Field];
  if (Field.Planes == 2)
    for (const FieldStatement &Other : S.FieldStatements)
      if (Other.Field == F.Field &&
          !(Other.Write.TimeBase == F.Write.TimeBase)) {
        D.error(Reject::NotDoubleBuffered, F.Write.Range,
                "'" + Name + "' is written at another plane than by an "
                "earlier statement; every statement writing a field writes "
                "the same plane of the step");
        D.note(Other.Write.Range, "the earlier write is here");
        return false;
      }
  S.FieldStatements.push_back(std::move(F));
  return true;
}

/// The plane an access without a plane index names: a swapped field's
/// (step t reads plane t mod 2 and writes the other; the run puts the
/// array the first step reads in the plane of its parity, so the time loop
/// may start anywhere) or the one plane of a field updated in place.
void Extractor::unwrittenPlane(Access &A, bool Swapped, bool Writes) const {
  if (Swapped) {
    A.TimeBase = AffineExpr::symbol(S.Time.Iter) +
                 AffineExpr::constant(Writes ? 1 : 0);
    A.Modulus = 2;
    // t mod 2, never negative: the device takes (t + w) & 1.
    A.SignedRemainder = false;
  } else {
    A.TimeBase = AffineExpr::symbol(S.Time.Iter) + AffineExpr::constant(1);
    A.Modulus = 1;
    A.SignedRemainder = false;
  }
}

bool Extractor::parseFieldAccess(const clang::Expr *E, const clang::VarDecl *V,
                                 const std::vector<const clang::Expr *> &Indices,
                                 Access &A) {
  const clang::VarDecl *TimeVar = nullptr;
  for (const auto &[Var, Iter] : Iterators)
    if (Iter == S.Time.Iter)
      TimeVar = Var;
  // A swapped pointer names its field by the pointer the steps read.
  const FieldSwap *Swapped = nullptr;
  bool WritesSwapped = false;
  if (auto It = FieldSwapOf.find(V); It != FieldSwapOf.end()) {
    Swapped = &It->second;
    WritesSwapped = V == Swapped->Out;
    V = Swapped->In;
  }
  auto Known = FieldIndex.find(V);
  // A flat pointer, 'u[i * m + j]': its one index splits into one subscript
  // per loop of the statement's nest (S.Space while it is parsed), and the
  // pointer reads as rows of the lengths the index multiplies by. An index
  // that names every loop of a nest of two or three is such a grid index
  // ('s[0]' or 's[j]' is not: a field of fewer dimensions, refused below);
  // once a field is flat, every access of it is.
  const bool GridKnown = !S.Fields.empty();
  const bool FlatField = Known != FieldIndex.end() &&
                         S.Fields[Known->second].Array.Form ==
                             ArrayForm::FlatPointer;
  bool NamesEveryLoop = S.Space.size() >= 2 && Indices.size() == 1;
  for (size_t Dm = 0; NamesEveryLoop && Dm < S.Space.size(); ++Dm) {
    bool Named = false;
    for (const auto &[Var, Iter] : Iterators)
      Named = Named || (Iter == S.Space[Dm].Iter && namesVar(Indices[0], Var));
    NamesEveryLoop = Named;
  }
  const bool Flat = isFlatPointer(V) && Indices.size() == 1 &&
                    (FlatField || NamesEveryLoop);
  std::vector<AffineExpr> FlatSpace, FlatExtents;
  if (Flat) {
    const std::string Name = V->getName().str();
    const std::string Rows = "declare '" + Name + "' as a pointer to rows, '" +
                             elemTypeName(GridKnown ? S.Elem : ElemType::Float) +
                             " (*" + Name + ")[m]'";
    if (Known != FieldIndex.end() && !FlatField) {
      std::string Cell, Row;
      for (size_t Dm = 0; Dm < S.Space.size(); ++Dm) {
        Cell += "[" + S.Space[Dm].Iter + "]";
        Row += "[" + (Dm ? S.Space[Dm].Iter : std::string("0")) + "]";
      }
      D.error(Reject::Dimensionality, E->getSourceRange(),
              "the flat pointer '" + Name + "' is indexed as a grid of " +
                  std::to_string(S.Space.size()) + " dimensions here, but "
                  "an earlier nest of fewer loops accessed it as a row; "
                  "an5dc splits a flat field's index into one subscript per "
                  "loop, so " + Rows + " and index it '" + Name + Cell +
                  "' and '" + Name + Row + "'");
      return false;
    }
    if (S.Space.size() < 2 || (GridKnown && S.Space.size() != S.GridDims)) {
      D.error(Reject::Dimensionality, E->getSourceRange(),
              "the flat pointer '" + Name + "' is indexed in a nest of " +
                  std::to_string(S.Space.size()) + " loop" +
                  (S.Space.size() == 1 ? "" : "s") + "; an5dc splits a "
                  "flat field's index into one subscript per loop, so each "
                  "nest that accesses it loops over every dimension of the "
                  "grid (for a row or a cell written alone, " + Rows + ")");
      return false;
    }
    if (!splitFlatIndex(V, Indices[0], S.Space, FlatSpace, FlatExtents))
      return false;
  }
  // The rows a flat array is read as: its row lengths, outermost first.
  auto flatShape = [&](ArrayInfo &AI) {
    AI.Form = ArrayForm::FlatPointer;
    for (size_t Dm = 1; Dm < FlatExtents.size(); ++Dm) {
      AI.Extents.push_back(FlatExtents[Dm]);
      AI.ExtentText.push_back(FlatExtents[Dm].str());
    }
  };
  if (Known == FieldIndex.end()) {
    FieldInfo FI;
    if (!describeArrayType(V, E->getSourceRange(), FI.Array, "the field"))
      return false;
    if (Flat)
      flatShape(FI.Array);
    FI.Planes =
        !Indices.empty() && selectsTimePlane(Indices[0], TimeVar) ? 2 : 1;
    if (Swapped) {
      ArrayInfo OutArray;
      if (!describeArrayType(Swapped->Out, E->getSourceRange(), OutArray,
                             "the field"))
        return false;
      if (Flat && isFlatPointer(Swapped->Out))
        flatShape(OutArray);
      bool Alike = OutArray.Elem == FI.Array.Elem &&
                   OutArray.ExtentText.size() == FI.Array.ExtentText.size();
      for (size_t Dm = 1; Alike && Dm < OutArray.ExtentText.size(); ++Dm)
        Alike = OutArray.ExtentText[Dm] == FI.Array.ExtentText[Dm];
      if (!Alike) {
        D.error(Reject::TurnMismatch, E->getSourceRange(),
                "'" + FI.Array.Name + "' and '" + OutArray.Name +
                    "' are swapped but declared differently; the two arrays "
                    "of a field have one element type and the same extents");
        D.note(OutArray.DeclRange, "'" + OutArray.Name + "' is declared here");
        return false;
      }
      if (!claimName(OutArray.Name, Swapped->Out, E->getSourceRange()))
        return false;
      // The two arrays as the field's two planes, plane 0 the read one.
      FI.Planes = 2;
      FI.Array.Extents.insert(FI.Array.Extents.begin(),
                              AffineExpr::constant(2));
      FI.Array.ExtentText.insert(FI.Array.ExtentText.begin(), "2");
      FI.SwapOut = OutArray.Name;
      FI.SwapOrder = Swapped->Order;
      if (!Swapped->TempDeclaredInLoop)
        FI.SwapTemp = Swapped->Temp->getName().str();
    }
    ArrayInfo &AI = FI.Array;
    if (FI.Planes == 2 && !AI.Extents.empty() && !AI.Extents[0]) {
      AI.Extents[0] = AffineExpr::constant(2);
      AI.ExtentText[0] = "2";
    }
    unsigned Dims = AI.Extents.size() - (FI.Planes - 1);
    if (Dims < 1 || Dims > 3) {
      D.error(Reject::Dimensionality, E->getSourceRange(),
              "the field '" + AI.Name + "' has " + std::to_string(Dims) +
                  " dimensions besides its planes; an5dc handles 1D, 2D and "
                  "3D grids");
      return false;
    }
    // A pointer's first grid extent is the rows the statements access
    // (parseFields); every other one must be declared.
    for (size_t Dm = FI.Planes; Dm < AI.Extents.size(); ++Dm)
      if (!AI.Extents[Dm]) {
        D.error(Reject::Dimensionality, E->getSourceRange(),
                "the extent of dimension " +
                    std::to_string(Dm + 2 - FI.Planes) + " of the field '" +
                    AI.Name + "' is not declared; an5dc copies every field "
                    "whole, so declare each one with all its extents, as '" +
                    elemTypeName(AI.Elem) + " " + AI.Name + "[n][m]'");
        D.note(AI.DeclRange, "'" + AI.Name + "' is declared here");
        return false;
      }
    if (!S.Fields.empty()) {
      const FieldInfo &First = S.Fields[0];
      if (AI.Elem != S.Elem) {
        D.error(Reject::ElementType, E->getSourceRange(),
                "the field '" + AI.Name + "' has elements of type " +
                    elemTypeName(AI.Elem) + " but '" + First.Array.Name +
                    "' of type " + elemTypeName(S.Elem) +
                    "; every field of the time step has one element type");
        return false;
      }
      if (Dims != S.GridDims) {
        D.error(Reject::Dimensionality, E->getSourceRange(),
                "the field '" + AI.Name + "' has " + std::to_string(Dims) +
                    " dimension" + (Dims == 1 ? "" : "s") + " besides its "
                    "planes, '" + First.Array.Name + "' " +
                    std::to_string(S.GridDims) + "; every array a time step "
                    "writes is a field over the same grid (a sum or other "
                    "reduction into an array is not a stencil update)");
        D.note(AI.DeclRange, "'" + AI.Name + "' is declared here");
        return false;
      }
      // Fields may differ in extents (a staggered grid: ex[n][m + 1],
      // ey[n + 1][m]): the device grid takes the largest of each, and each
      // field's accesses stay inside its own (FieldsAnalysis).
    } else {
      S.Elem = AI.Elem;
      S.GridDims = Dims;
    }
    if (!claimName(AI.Name, V, E->getSourceRange()))
      return false;
    Known = FieldIndex.emplace(V, S.Fields.size()).first;
    S.Fields.push_back(std::move(FI));
  }
  const FieldInfo &FI = S.Fields[Known->second];
  A.Field = Known->second;
  A.Range = E->getSourceRange();
  if (Flat) {
    // Every access reads the field as rows of the same lengths.
    bool Same = FI.Array.Form == ArrayForm::FlatPointer &&
                FlatExtents.size() + FI.Planes - 1 == FI.Array.Extents.size();
    for (size_t Dm = 1; Same && Dm < FlatExtents.size(); ++Dm)
      Same = FI.Array.Extents[Dm + FI.Planes - 1] &&
             *FI.Array.Extents[Dm + FI.Planes - 1] == FlatExtents[Dm];
    if (!Same) {
      std::string Rows;
      for (size_t Dm = FI.Planes; Dm < FI.Array.ExtentText.size(); ++Dm)
        Rows += (Rows.empty() ? "" : " x ") + FI.Array.ExtentText[Dm];
      D.error(Reject::TurnMismatch, Indices[0]->getSourceRange(),
              "this index reads '" + V->getName().str() + "' as rows of "
              "other lengths than its first access (" + Rows + "); every "
              "access of a flat field needs the same row lengths");
      return false;
    }
    A.Space = FlatSpace;
    unwrittenPlane(A, Swapped != nullptr, WritesSwapped);
    return true;
  }
  const size_t Subscripts = FI.Array.Extents.size() - (Swapped ? 1 : 0);
  if (Indices.size() != Subscripts) {
    D.error(Reject::Dimensionality, E->getSourceRange(),
            "'" + FI.Array.Name + "' is indexed with " +
                std::to_string(Indices.size()) + " subscripts; it has " +
                std::to_string(Subscripts) + " dimensions" +
                (FI.Planes == 2 && !Swapped ? " (the plane first)" : ""));
    return false;
  }
  size_t First = 0;
  if (Swapped || FI.Planes == 1) {
    unwrittenPlane(A, Swapped != nullptr, WritesSwapped);
  } else {
    if (!selectsTimePlane(Indices[0], TimeVar)) {
      D.error(Reject::NotDoubleBuffered, Indices[0]->getSourceRange(),
              "'" + FI.Array.Name + "' has a plane index elsewhere; every "
              "access of it selects a plane with the time loop's iterator, "
              "as '(" + S.Time.Iter + " + 1) % 2' or '" + S.Time.Iter +
                  " % 2'");
      return false;
    }
    if (!parsePlaneIndex(Indices[0], A))
      return false;
    if (A.Modulus != 2) {
      D.error(Reject::NotDoubleBuffered, Indices[0]->getSourceRange(),
              "three time levels ('% 3') in a time step of several fields "
              "are not accepted yet; give each field two planes, '(" +
                  S.Time.Iter + " + 1) % 2' and '" + S.Time.Iter + " % 2'");
      return false;
    }
    AffineExpr Rest = A.TimeBase - AffineExpr::symbol(S.Time.Iter);
    if (A.TimeBase.coeff(S.Time.Iter) != 1 || !Rest.isConstant()) {
      D.error(Reject::NotDoubleBuffered, Indices[0]->getSourceRange(),
              "the plane index must be '(" + S.Time.Iter +
                  " + k) % 2' with a constant k");
      return false;
    }
    First = 1;
  }
  for (size_t I = First; I < Indices.size(); ++I) {
    if (selectsTimePlane(Indices[I], TimeVar)) {
      D.error(Reject::NotDoubleBuffered, Indices[I]->getSourceRange(),
              "'" + FI.Array.Name + "' selects a plane in its subscript " +
                  std::to_string(I + 1) + "; a plane index comes first, and "
                  "every access of a field has it or none does");
      return false;
    }
    std::optional<AffineExpr> X = toAffine(Indices[I]);
    if (!X)
      return false;
    if (X->coeff(S.Time.Iter)) {
      D.error(Reject::VariableOffset, Indices[I]->getSourceRange(),
              "the subscript uses the time loop's iterator '" + S.Time.Iter +
                  "'; a field's cells are indexed by the spatial loops");
      return false;
    }
    A.Space.push_back(*X);
  }
  return true;
}
