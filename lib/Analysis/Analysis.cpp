//===- Analysis.cpp - Stencil properties from the isl model ---------------===//
#include "an5d/Analysis.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>

using namespace an5d;

const char *an5d::shapeName(Shape S) {
  switch (S) {
  case Shape::Star: return "star";
  case Shape::Box: return "box";
  case Shape::General: return "general";
  }
  return "?";
}

namespace {

std::string iterList(const Stencil &S, bool WithTime) {
  std::string L = WithTime ? islName(S.Time.Iter) : "";
  for (const Loop &Lp : S.Space)
    L += (L.empty() ? "" : ", ") + islName(Lp.Iter);
  return L;
}

std::string arrayVars(const Stencil &S) {
  std::string V = "p";
  for (size_t D = 0; D < S.Space.size(); ++D)
    V += ", x" + std::to_string(D);
  return V;
}

/// "[i][j]": the cell's own index, in the user's iterator names.
std::string cellIndex(const Stencil &S) {
  // As the user writes it: without a 1D stencil's virtual row.
  std::string Idx;
  for (size_t D = S.VirtualDims; D < S.Space.size(); ++D)
    Idx += "[" + S.Space[D].Iter + "]";
  return Idx;
}

/// The plane selector text "(t + k) % 2" (three levels: % 3) for a shift k.
std::string planeText(const Stencil &S, int64_t Shift) {
  AffineExpr E = AffineExpr::symbol(S.Time.Iter) + AffineExpr::constant(Shift);
  std::string M = " % " + std::to_string(S.Planes);
  return Shift == 0 ? S.Time.Iter + M : "(" + E.str() + ")" + M;
}

// --- Double coefficients -----------------------------------------------------

/// Distinct literals (by spelling and type) S's update computes with as
/// doubles that no SASS immediate holds.
int64_t countWideDoubleLiterals(const Stencil &S) {
  std::set<std::pair<std::string, ScalarType>> Wide;
  ExprSpelling Spell;
  std::vector<std::string> NoReadText(S.Reads.size());
  Spell.ReadText = NoReadText;
  std::vector<std::string> NoCoefText(S.CoefReads.size());
  Spell.CoefText = NoCoefText;
  Spell.DoubleLiteral = [&Wide](const Expr &Literal) {
    std::optional<double> V = literalAsDouble(Literal);
    if (V && wideDoubleLiteral(*V))
      Wide.insert({Literal.Text, Literal.Type});
    return std::string();
  };
  printExprAs(S.Update, Spell);
  return static_cast<int64_t>(Wide.size());
}

/// Whether an operation of E computes in float: arithmetic or a call of
/// float type (negation and conversions round the same way everywhere).
static bool computesInFloat(const Expr &E) {
  if (E.Type == ScalarType::Float &&
      (E.K == Expr::Call ||
       (E.K == Expr::Binary &&
        (E.Text == "+" || E.Text == "-" || E.Text == "*" || E.Text == "/"))))
    return true;
  for (const Expr &Arg : E.Args)
    if (computesInFloat(Arg))
      return true;
  return false;
}

class Analyzer {
public:
  Analyzer(const Stencil &S, const ScopModel &M, Diagnoser &D,
           const AnalysisOptions &O)
      : S(S), M(M), D(D), C(M.Ctx->get()) {
    A.FastMath = O.FastMath;
  }
  std::optional<StencilAnalysis> run();

private:
  bool checkWrite();
  bool computeOffsets();
  bool checkDependences();
  void findOlderReads();
  /// Three time levels: every read of the older level is at the cell
  /// itself (the kernels keep that level's value in the cell's register).
  bool checkOlderReads();
  bool checkBounds();
  bool checkCoefBounds(size_t R);
  bool checkPlaneSign(const an5d::Access &Src);
  bool checkAccessBounds(const isl::map &Access, const an5d::Access &Src,
                         bool IsWrite);
  void classify();

  /// [P] -> { S[t, s...] -> [s...] } restricted to the domain.
  isl::map cellOf() {
    return isl::map(C, islParams(S.Params) + " -> { S[" + iterList(S, true) +
                           "] -> [" + iterList(S, false) + "] }")
        .intersect_domain(M.Domain);
  }
  /// { A[p, x...] -> [x...] }: the spatial part of an array element.
  isl::map spatialPart() {
    std::string Xs = arrayVars(S).substr(3);
    return isl::map(C, "{ " + M.ArrayTuple + "[" + arrayVars(S) + "] -> [" +
                           Xs + "] }");
  }

  const Stencil &S;
  const ScopModel &M;
  Diagnoser &D;
  isl::ctx C;
  StencilAnalysis A;
};

bool Analyzer::checkWrite() {
  if (!M.Write.apply_range(spatialPart()).is_equal(cellOf())) {
    D.error(Reject::WriteNotOwnCell, S.Write.Range,
            "the update must write the cell of its own iteration, '" +
                S.Array.Name + "[" + planeText(S, 1) + "]" + cellIndex(S) +
                "' with the loop iterators in loop order (write a cell at "
                "an offset by shifting the loop bounds instead)");
    return false;
  }
  int64_t Planes = S.Planes;
  A.Planes = S.Planes;
  A.WriteShift = ((S.Write.TimeBase.Constant % Planes) + Planes) % Planes;
  return true;
}

/// Which reads are of the step before the previous one (OlderRead): with
/// three planes those of plane (t + w - 2) % 3, with two a read of the
/// plane being written at the cell itself (what it held two steps back:
/// the leapfrog form of a second-order scheme).
void Analyzer::findOlderReads() {
  int64_t Planes = S.Planes;
  bool Any = false;
  for (size_t R = 0; R < S.Reads.size(); ++R) {
    int64_t Back = ((S.Write.TimeBase.Constant - S.Reads[R].TimeBase.Constant) %
                        Planes + Planes) % Planes;
    const std::vector<int64_t> &O = A.ReadOffsets[R];
    bool AtCell = std::all_of(O.begin(), O.end(), [](int64_t X) { return X == 0; });
    // An array updated in place has one plane: its own cell is the
    // previous step's value there.
    bool Older = Planes == 3 ? Back == 2
                             : (Back == 0 && AtCell &&
                                S.Form != StencilForm::InPlace);
    A.OlderRead.push_back(Older);
    Any |= Older;
  }
  A.TimeLevels = Planes == 3 || Any ? 3 : 2;
}

bool Analyzer::computeOffsets() {
  // [P] -> { [s...] -> S[t, s...] }
  isl::map CellToIter = cellOf().reverse();
  assert(M.SameAccessAs.size() == M.Reads.size());
  for (size_t R = 0; R < M.Reads.size(); ++R) {
    if (M.SameAccessAs[R] != R) {
      A.ReadOffsets.push_back(A.ReadOffsets[M.SameAccessAs[R]]);
      continue;
    }
    // [P] -> { [x - s, ...] }: how far the read is from the updated cell
    isl::set Deltas =
        CellToIter.apply_range(M.Reads[R].apply_range(spatialPart())).deltas();
    std::optional<std::vector<int64_t>> Off = singletonPoint(Deltas);
    if (!Off) {
      D.error(Reject::VariableOffset, S.Reads[R].Range,
              "this read is not at a fixed offset from the updated cell; "
              "each index must be its loop's iterator plus a constant, in "
              "loop order, e.g. '" + S.Array.Name + "[t % 2][" +
                  S.Space[0].Iter + " - 1]...'");
      return false;
    }
    A.ReadOffsets.push_back(*Off);
  }
  std::set<std::vector<int64_t>> Distinct(A.ReadOffsets.begin(),
                                          A.ReadOffsets.end());
  A.Offsets.assign(Distinct.begin(), Distinct.end());
  return true;
}

bool Analyzer::checkOlderReads() {
  for (size_t R = 0; R < S.Reads.size(); ++R) {
    if (!A.OlderRead[R])
      continue;
    const std::vector<int64_t> &O = A.ReadOffsets[R];
    if (std::any_of(O.begin(), O.end(), [](int64_t X) { return X != 0; })) {
      // "A[t % 3]" then the cell's own subscripts.
      std::string Read = S.Reads[R].str(S.Array.Name, S.numSpaceDims());
      D.error(Reject::OlderLevelOffset, S.Reads[R].Range,
              "this read of the step before the previous one is not at the "
              "updated cell; an5dc reads that level at the cell itself only "
              "('" + Read + cellIndex(S) + "'), the previous step's plane at "
              "any offset");
      return false;
    }
  }
  return true;
}

/// Jacobi: every value read was written one step earlier (or is initial),
/// and no two cells of one step touch the same element.
bool Analyzer::checkDependences() {
  std::string Dims = "dt";
  for (size_t I = 0; I < S.Space.size(); ++I)
    Dims += ", d" + std::to_string(I);
  auto withDelta = [&](const std::string &Cond) {
    return isl::union_set(isl::set(C, "{ S[" + Dims + "] : " + Cond + " }"));
  };
  // { S[dt, d...] : dt = 1 }: dependence distances of a Jacobi stencil
  // (three time levels: dt = 1 or 2, the older level read at the cell)
  isl::union_set PreviousStep =
      withDelta(A.TimeLevels == 3 ? "1 <= dt <= 2" : "dt = 1");
  // An array updated in place keeps one plane: what N.5D blocking would
  // need instead is a second plane or array for the step's new values.
  const bool InPlace = S.Form == StencilForm::InPlace;
  std::string Apart =
      "write the step's values apart from the values it reads: a plane "
      "index ('" + S.Array.Name + "[(" + S.Time.Iter + " + 1) % 2]" +
      cellIndex(S) + " = f(" + S.Array.Name + "[" + S.Time.Iter +
      " % 2])'), two arrays in turn or a pointer swap";
  if (M.Flow.deltas().is_subset(PreviousStep) &&
      M.SameStepConflicts.is_empty() && checkOlderReads()) {
    if (InPlace) {
      D.error(Reject::NotDoubleBuffered, S.Write.Range,
              "'" + S.Array.Name + "' is updated in place, with no plane "
              "index; " + Apart);
      return false;
    }
    A.Jacobi = true;
    return true;
  }
  bool Reported = false;
  std::string Expected = planeText(S, A.WriteShift - 1);
  // What a read should read instead: the previous step's plane, or with two
  // arrays in turn the array the other loop nest writes.
  std::string Instead = "'" + S.Array.Name + "[" + Expected + "]'";
  if (S.Form == StencilForm::TwoArrays)
    Instead = "'" + S.PlaneArrays[0].Name + "', the array the other loop "
              "nest writes";
  else if (S.Form == StencilForm::CopyBack)
    Instead = "'" + S.PlaneArrays[0].Name + "', the array the copy-back "
              "updates";
  else if (S.Form == StencilForm::PointerSwap)
    Instead = "'" + S.PlaneArrays[0].Name + "', the pointer to the previous "
              "step's array";
  else if (InPlace)
    Instead = "'" + S.Array.Name + "' is updated in place; " + Apart;
  for (size_t R = 0; R < M.Reads.size(); ++R) {
    // [P] -> { S[dt, d...] }: distances of the flow into read R
    isl::union_set Deltas = flowInto(M, R).deltas();
    if (!Deltas.intersect(withDelta("dt = 0")).is_empty()) {
      D.error(Reject::GaussSeidel, S.Reads[R].Range,
              "this read gets a value computed in the same time step "
              "(Gauss-Seidel order); N.5D blocking needs every read from the "
              "previous step's " +
                  std::string(InPlace ? "values: "
                              : S.planesAreArrays() ? "values, "
                                                    : "plane, ") +
                  Instead);
      Reported = true;
    } else if (!Deltas.is_subset(PreviousStep)) {
      D.error(Reject::NotJacobi, S.Reads[R].Range,
              std::string(A.TimeLevels == 3
                              ? "this read gets a value written three or more "
                                "steps earlier, neither the previous step's "
                                "nor, at the cell, the one before; read "
                              : "this read gets a value written two or more "
                                "steps earlier, not the previous step's; "
                                "read ") +
                  std::string(S.planesAreArrays() ? "" : "the plane ") +
                  Instead + " instead");
      Reported = true;
    }
  }
  if (!Reported)
    D.error(Reject::NotJacobi, S.NestRange,
            "the spatial loops of this nest carry a dependence: two cells of "
            "one time step access the same element" +
                (InPlace ? "; '" + S.Array.Name + "' is updated in place: " +
                               Apart
                         : std::string()));
  return false;
}

bool Analyzer::checkAccessBounds(const isl::map &Access, const an5d::Access &Src,
                                 bool IsWrite) {
  // [P] -> { A[p, x...] }: elements accessed outside the declared extents
  isl::set Outside = Access.range().subtract(M.Extent);
  if (Outside.is_empty())
    return true;
  std::string What = IsWrite ? "write" : "read";
  std::string Where;
  for (size_t Dim = 1; Dim < S.Array.Extents.size(); ++Dim) {
    std::string X = "x" + std::to_string(Dim - 1);
    isl::set Below(C, islParams(S.Params) + " -> { " + M.ArrayTuple + "[" +
                          arrayVars(S) + "] : " + X + " < 0 }");
    if (!Outside.intersect(Below).is_empty())
      Where += " index " + std::to_string(Dim) + " ('" +
               Src.Space[Dim - 1].str() + "') can be negative;";
    if (const std::optional<AffineExpr> &Ext = S.Array.Extents[Dim]) {
      isl::set Above(C, islParams(S.Params) + " -> { " + M.ArrayTuple + "[" +
                            arrayVars(S) + "] : " + X + " >= " +
                            islAffine(*Ext) + " }");
      if (!Outside.intersect(Above).is_empty())
        Where += " index " + std::to_string(Dim) + " ('" +
                 Src.Space[Dim - 1].str() + "') can reach the extent " +
                 Ext->str() + ";";
    }
  }
  if (!Where.empty())
    Where.pop_back();
  const std::string &Name = S.arrayOf(Src);
  if (M.Domain.params().is_subset(Outside.params())) {
    D.error(Reject::OutOfBounds, Src.Range,
            "this " + What + " is outside the array '" + Name +
                "':" + Where + "; shrink the loop bounds by the stencil's "
                "reach or enlarge the array");
    clang::SourceRange Decl = S.Array.DeclRange;
    for (const ArrayInfo &Plane : S.PlaneArrays)
      if (Plane.Name == Name)
        Decl = Plane.DeclRange;
    D.note(Decl, "'" + Name + "' is declared here");
    return false;
  }
  std::string When = islStr(Outside.params());
  D.warning(Src.Range, "cannot prove this " + What + " stays inside '" +
                           Name + "' for every size:" + Where +
                           " (for " + When + ")");
  A.BoundsNotes.push_back(What + " " + Src.str(S.Array.Name, S.VirtualDims) +
                          " may be outside for " + When);
  return true;
}

/// A coefficient read at an interior cell must stay inside the array as
/// declared; as for the stencil array, outside for every size is an error,
/// for some sizes a warning and a note.
bool Analyzer::checkCoefBounds(size_t R) {
  const CoefAccess &Src = S.CoefReads[R];
  const ArrayInfo &Arr = S.CoefArrays[Src.Array];
  // [P] -> { c[x...] }: elements read outside the declared extents
  isl::set Outside =
      M.CoefReads[R].range().subtract(M.CoefExtents[Src.Array]);
  if (Outside.is_empty())
    return true;
  std::string Text = Src.str(Arr.Name);
  if (M.Domain.params().is_subset(Outside.params())) {
    D.error(Reject::OutOfBounds, Src.Range,
            "this read is outside the coefficient array '" + Arr.Name +
                "' at some cell of the loop nest; shrink the loop bounds or "
                "enlarge the array");
    D.note(Arr.DeclRange, "'" + Arr.Name + "' is declared here");
    return false;
  }
  std::string When = islStr(Outside.params());
  D.warning(Src.Range, "cannot prove this read stays inside '" + Arr.Name +
                           "' for every size (for " + When + ")");
  A.BoundsNotes.push_back("read " + Text + " may be outside for " + When);
  return true;
}

/// isl models the plane as (t + k) mod 2, always 0 or 1; C's '%' gives -1
/// for a negative t + k, an index before the array.
bool Analyzer::checkPlaneSign(const an5d::Access &Src) {
  if (!Src.SignedRemainder)
    return true;
  // [P] -> { S[t, s...] : t + k < 0 }: iterations with a negative plane
  isl::set Negative =
      isl::set(C, islParams(S.Params) + " -> { S[" + iterList(S, true) +
                      "] : " + islAffine(Src.TimeBase) + " < 0 }")
          .intersect(M.Domain);
  if (Negative.is_empty())
    return true;
  std::string Plane = Src.TimeBase.Constant == 0
                          ? Src.TimeBase.str()
                          : "(" + Src.TimeBase.str() + ")";
  std::string Msg = "the plane index '" + Plane +
                    " % 2' is negative when " + Src.TimeBase.str() +
                    " < 0 (C's '%' keeps the sign), so this accesses memory "
                    "before '" + S.Array.Name + "'; start the time loop at "
                    "a value that keeps it non-negative, or use '& 1'";
  if (M.Domain.params().is_subset(Negative.params())) {
    D.error(Reject::OutOfBounds, Src.Range, Msg);
    return false;
  }
  D.warning(Src.Range, Msg + " (for " + islStr(Negative.params()) + ")");
  A.BoundsNotes.push_back("negative plane index for " +
                          islStr(Negative.params()));
  return true;
}

bool Analyzer::checkBounds() {
  bool Ok = checkAccessBounds(M.Write, S.Write, true) && checkPlaneSign(S.Write);
  // A read like an earlier one that passed without a note passes too; one
  // with a diagnostic repeats it at its own location.
  std::vector<bool> Clean;
  for (size_t R = 0; R < M.Reads.size(); ++R) {
    if (M.SameAccessAs[R] != R && Clean[M.SameAccessAs[R]]) {
      Clean.push_back(true);
      continue;
    }
    size_t Notes = A.BoundsNotes.size();
    bool ReadOk = checkAccessBounds(M.Reads[R], S.Reads[R], false) &&
                  checkPlaneSign(S.Reads[R]);
    Clean.push_back(ReadOk && A.BoundsNotes.size() == Notes);
    Ok &= ReadOk;
  }
  for (size_t R = 0; R < M.CoefReads.size(); ++R)
    Ok &= checkCoefBounds(R);
  A.BoundsProven = Ok && A.BoundsNotes.empty();
  if (!S.Array.Extents[0])
    A.BoundsNotes.push_back("plane extent not declared: assumes " +
                            std::to_string(S.Planes) + " planes");
  return Ok;
}

void Analyzer::classify() {
  unsigned N = A.Dims;
  A.ReachLo.assign(N, 0);
  A.ReachHi.assign(N, 0);
  bool Star = true, Diagonal = false;
  for (const auto &O : A.Offsets) {
    unsigned NonZero = 0;
    for (unsigned I = 0; I < N; ++I) {
      A.ReachLo[I] = std::max(A.ReachLo[I], -O[I]);
      A.ReachHi[I] = std::max(A.ReachHi[I], O[I]);
      NonZero += O[I] != 0;
    }
    Star &= NonZero <= 1;
    Diagonal |= O[0] != 0 && NonZero > 1;
  }
  for (unsigned I = 0; I < N; ++I)
    A.Radius = std::max({A.Radius, A.ReachLo[I], A.ReachHi[I]});
  uint64_t BoxPoints = 1;
  for (unsigned I = 0; I < N; ++I)
    BoxPoints *= uint64_t(A.ReachLo[I] + A.ReachHi[I] + 1);
  if (Star)
    A.StencilShape = Shape::Star;
  else if (A.Offsets.size() == BoxPoints)
    A.StencilShape = Shape::Box;
  else
    A.StencilShape = Shape::General;
  A.DiagonalFree = !Diagonal;
  std::vector<int64_t> Plane;
  for (const auto &O : A.ReadOffsets)
    Plane.push_back(O[0]);
  A.CoefArrays = S.CoefArrays.size();
  A.ReadsTime = S.ReadsTime;
  for (const CoefAccess &R : S.CoefReads)
    A.ReadsTime = A.ReadsTime || R.TimeIndexed;
  std::vector<std::string> CoefTexts = coefReadTexts(S);
  std::set<std::string> CoefCells(CoefTexts.begin(), CoefTexts.end());
  A.CoefReadsPerCell = CoefCells.size();
  for (const ArrayInfo &C : S.CoefArrays)
    if (C.Extents.size() == S.numSpaceDims() - S.VirtualDims)
      A.CoefGridBytes += elemTypeBytes(C.Elem);
  // The partial sums take the previous level's rows only.
  if (S.CoefReads.empty() && !S.ReadsTime && A.TimeLevels == 2)
    A.Associative = associativeForm(S.Update, Plane, nullptr, A.FastMath);
}

std::optional<StencilAnalysis> Analyzer::run() {
  A.Dims = S.Space.size();
  try {
    if (M.Domain.is_empty()) {
      D.error(Reject::EmptyDomain, S.NestRange,
              "this loop nest never executes, whatever the sizes; check the "
              "loop bounds");
      return std::nullopt;
    }
    if (!checkWrite() || !computeOffsets() ||
        (findOlderReads(), !checkDependences()) ||
        !checkBounds())
      return std::nullopt;
  } catch (const isl::exception &E) {
    D.error(Reject::Internal, S.NestRange,
            std::string("isl failed while analysing this loop nest: ") +
                E.what());
    return std::nullopt;
  }
  classify();
  A.WideDoubleLiterals = countWideDoubleLiterals(S);
  A.FloatInDouble = S.Elem == ElemType::Double && computesInFloat(S.Update);
  return A;
}

// --- Associativity -----------------------------------------------------------

const Expr *stripParens(const Expr *E) {
  while (E->K == Expr::Paren)
    E = &E->Args[0];
  return E;
}

bool readsArray(const Expr &E) {
  std::vector<unsigned> R;
  collectReads(E, R);
  return !R.empty();
}

/// A factor that reads no cell, applied to every term of a sum it scales
/// (--fast-math): Op is "*" or "/", Left for w * (sum).
struct Scale {
  std::string Op;
  const Expr *Factor = nullptr;
  bool Left = false;
  const Expr *Node = nullptr; // the '*' or '/' that applies it
};

Expr paren(Expr Inner) {
  Expr P;
  P.K = Expr::Paren;
  P.Type = Inner.Type;
  P.Range = Inner.Range;
  P.Args = {std::move(Inner)};
  return P;
}

/// Term with the scales applied, innermost last: w * (u * (term)). Each
/// product keeps its node's type and range, so it computes in the type C
/// computed the original product in.
Expr scaled(const Expr &Term, const std::vector<Scale> &Scales) {
  Expr E = Term;
  for (size_t I = Scales.size(); I-- > 0;) {
    const Scale &Sc = Scales[I];
    Expr Node;
    Node.K = Expr::Binary;
    Node.Text = Sc.Op;
    Node.Type = Sc.Node->Type;
    Node.Range = Sc.Node->Range;
    Expr Operand = paren(std::move(E));
    Node.Args = Sc.Left ? std::vector<Expr>{*Sc.Factor, std::move(Operand)}
                        : std::vector<Expr>{std::move(Operand), *Sc.Factor};
    E = std::move(Node);
  }
  return E;
}

/// The sum a product or quotient by a read-free factor scales, or null:
/// w * (sum), (sum) * w, (sum) / w.
const Expr *scaledSum(const Expr *E, Scale &Sc) {
  if (E->K != Expr::Binary || (E->Text != "*" && E->Text != "/"))
    return nullptr;
  Sc.Op = E->Text;
  Sc.Node = E;
  if (!readsArray(E->Args[1])) {
    Sc.Factor = &E->Args[1];
    Sc.Left = false;
    return &E->Args[0];
  }
  if (E->Text == "*" && !readsArray(E->Args[0])) {
    Sc.Factor = &E->Args[0];
    Sc.Left = true;
    return &E->Args[1];
  }
  return nullptr;
}

/// Splits a sum into signed terms; false when a term reads several planes
/// (Distribute: and is no read-free factor times such a sum). Scales are
/// the factors distributed over E so far.
bool collectTerms(const Expr *E, bool Negated,
                  const std::vector<int64_t> &ReadPlane, AssociativeForm &F,
                  const Expr *&Offending, bool Distribute,
                  std::vector<Scale> &Scales) {
  E = stripParens(E);
  auto recurse = [&](const Expr *Sub, bool Neg) {
    return collectTerms(Sub, Neg, ReadPlane, F, Offending, Distribute, Scales);
  };
  if (E->K == Expr::Binary && (E->Text == "+" || E->Text == "-"))
    return recurse(&E->Args[0], Negated) &&
           recurse(&E->Args[1], E->Text == "-" ? !Negated : Negated);
  if (E->K == Expr::Unary && E->Text == "-")
    return recurse(&E->Args[0], !Negated);
  std::vector<unsigned> Reads;
  collectReads(*E, Reads);
  std::set<int64_t> Planes;
  for (unsigned R : Reads)
    Planes.insert(ReadPlane[R]);
  if (Planes.size() > 1) {
    Scale Sc;
    const Expr *Sum = Distribute ? scaledSum(E, Sc) : nullptr;
    if (!Sum) {
      Offending = E;
      return false;
    }
    Scales.push_back(Sc);
    bool Ok = recurse(Sum, Negated);
    Scales.pop_back();
    return Ok;
  }
  AssociativeForm::Term T;
  T.Negated = Negated;
  T.ReadsArray = !Planes.empty();
  T.Plane = Planes.empty() ? 0 : *Planes.begin();
  T.E = E;
  if (!Scales.empty()) {
    T.Distributed = std::make_shared<const Expr>(scaled(*E, Scales));
    T.E = T.Distributed.get();
  }
  F.Terms.push_back(T);
  return true;
}

} // namespace

std::optional<double> an5d::literalAsDouble(const Expr &Literal) {
  // A double literal has no suffix (with 'L' it is a long double).
  std::string Text = Literal.Text;
  if (Literal.Type == ScalarType::Float && !Text.empty() &&
      (Text.back() == 'f' || Text.back() == 'F'))
    Text.pop_back();
  if (Text.empty())
    return std::nullopt;
  char *End = nullptr;
  double V = Literal.Type == ScalarType::Float
                 ? static_cast<double>(std::strtof(Text.c_str(), &End))
                 : std::strtod(Text.c_str(), &End);
  if (End != Text.c_str() + Text.size())
    return std::nullopt;
  return V;
}

bool an5d::wideDoubleLiteral(double V) {
  uint64_t Bits;
  std::memcpy(&Bits, &V, sizeof Bits);
  return (Bits & 0xffffffffu) != 0;
}

void an5d::collectReads(const Expr &E, std::vector<unsigned> &Out) {
  if (E.K == Expr::Read)
    Out.push_back(E.ReadIndex);
  for (const Expr &Arg : E.Args)
    collectReads(Arg, Out);
}

std::optional<AssociativeForm>
an5d::associativeForm(const Expr &Update, const std::vector<int64_t> &ReadPlane,
                      const Expr **Offending, bool Distribute) {
  AssociativeForm F;
  const Expr *Body = stripParens(&Update);
  if (Body->K == Expr::Binary && (Body->Text == "/" || Body->Text == "*") &&
      !readsArray(Body->Args[1])) {
    F.OuterOp = Body->Text;
    F.Factor = &Body->Args[1];
    F.Outer = Body;
    Body = &Body->Args[0];
  } else if (Body->K == Expr::Binary && Body->Text == "*" &&
             !readsArray(Body->Args[0])) {
    F.OuterOp = "*";
    F.Factor = &Body->Args[0];
    F.Outer = Body;
    Body = &Body->Args[1];
  }
  F.Sum = Body;
  const Expr *Bad = nullptr;
  std::vector<Scale> Scales;
  if (!collectTerms(Body, false, ReadPlane, F, Bad, Distribute, Scales)) {
    if (Offending)
      *Offending = Bad;
    return std::nullopt;
  }
  // Floating-point sums depend on their order: note where C's differs from
  // the partial sums' (constants first, then planes in increasing order).
  if (!Distribute) {
    bool SeenArray = false;
    int64_t Last = 0;
    for (const AssociativeForm::Term &T : F.Terms) {
      bool Early = T.ReadsArray ? SeenArray && T.Plane < Last : SeenArray;
      if (Early) {
        F.OutOfOrder = T.E;
        break;
      }
      if (T.ReadsArray) {
        SeenArray = true;
        Last = T.Plane;
      }
    }
  }
  return F;
}

std::optional<StencilAnalysis> an5d::analyzeStencil(const Stencil &S,
                                                    const ScopModel &M,
                                                    Diagnoser &D,
                                                    const AnalysisOptions &O) {
  return Analyzer(S, M, D, O).run();
}

void StencilAnalysis::dump(llvm::raw_ostream &OS) const {
  OS << "analysis\n";
  OS << "  dimensions: " << Dims << "\n";
  OS << "  math: "
     << (FastMath ? "fast (--fast-math: reassociation, approximate division "
                    "and sqrt)"
                  : "exact (IEEE, in the order written)")
     << "\n";
  if (FloatInDouble)
    OS << "  arithmetic: partly in float (float operands): the float "
          "verify tolerance\n";
  OS << "  offsets (" << Offsets.size() << "):";
  for (const auto &O : Offsets) {
    OS << " [";
    for (size_t I = 0; I < O.size(); ++I)
      OS << (I ? ", " : "") << O[I];
    OS << "]";
  }
  OS << "\n  reach:";
  for (unsigned I = 0; I < Dims; ++I)
    OS << " [-" << ReachLo[I] << ", +" << ReachHi[I] << "]";
  OS << "\n  radius: " << Radius << "\n";
  OS << "  shape: " << shapeName(StencilShape) << "\n";
  OS << "  diagonal-free: " << (DiagonalFree ? "yes" : "no") << "\n";
  OS << "  associative: ";
  if (Associative) {
    std::set<int64_t> Planes;
    for (const auto &T : Associative->Terms)
      Planes.insert(T.Plane);
    OS << "yes (" << Associative->Terms.size() << " terms over "
       << Planes.size() << " planes";
    size_t Distributed = 0;
    for (const auto &T : Associative->Terms)
      Distributed += T.Distributed != nullptr;
    if (Distributed)
      OS << ", " << Distributed << " with a factor distributed";
    if (!Associative->OuterOp.empty())
      OS << ", then " << Associative->OuterOp << " a constant factor";
    OS << ")\n";
  } else {
    OS << (CoefArrays ? "no (reads coefficient arrays)\n"
           : ReadsTime ? "no (reads the time step)\n"
           : TimeLevels == 3 ? "no (three time levels)\n"
                       : "no\n");
  }
  if (CoefArrays)
    OS << "  coefficient arrays: " << CoefArrays << " (" << CoefReadsPerCell
       << " distinct elements per cell, " << CoefGridBytes
       << " bytes per cell from memory)\n";
  OS << "  jacobi: " << (Jacobi ? "yes" : "no") << "\n";
  OS << "  write plane: (t + " << WriteShift << ") % " << Planes << "\n";
  if (TimeLevels == 3) {
    OS << "  older-level reads:";
    for (size_t R = 0; R < OlderRead.size(); ++R)
      if (OlderRead[R])
        OS << " " << R;
    OS << "\n";
  }
  OS << "  bounds: " << (BoundsProven ? "proven" : "not proven") << "\n";
  for (const std::string &N : BoundsNotes)
    OS << "    " << N << "\n";
  OS << "  wide double literals: " << WideDoubleLiterals << "\n";
}
