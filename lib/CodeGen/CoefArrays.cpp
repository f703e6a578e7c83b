//===- CoefArrays.cpp - Read-only coefficient arrays in the generated code -===//
//
// A coefficient array (Stencil::CoefArrays) goes to the device once per run
// (an5d_coef_copy, host runtime) and reaches the kernels, with every array's
// row lengths, as one struct beside the scalars. The update reads it with
// __ldg at the cell's coordinates: the kernel passes its row and columns,
// clamped into the interior, since the threads of a tile's halo and rows
// outside the interior compute values they discard. Slabs and out-of-core
// chunks set an5d_origin, the grid plane their first plane holds.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

using namespace an5d;
using namespace an5d::codegen;

namespace {

/// The grid dimension a spatial iterator runs along.
unsigned gridDimOf(const Stencil &S, const std::string &Iter) {
  for (unsigned D = 0; D < S.Space.size(); ++D)
    if (S.Space[D].Iter == Iter)
      return D;
  assert(false && "a coefficient subscript names no spatial iterator");
  return 0;
}

std::string extentMember(const ArrayInfo &A, size_t Dim) {
  return "an5d_ext_" + A.Name + "[" + str(Dim - 1) + "]";
}

} // namespace

void Emitter::coefArrayStruct() {
  if (!passesCoefStruct())
    return;
  W.line("// The coefficient arrays the update reads: read-only device "
         "copies (an5d_coef_copy) and");
  W.line("// the lengths of each one's dimensions after the first. "
         "an5d_origin: the plane along " + It[0]);
  W.line("// the device grid's first plane holds (0, or a slab's or an "
         "out-of-core chunk's first plane).");
  W.line("struct an5d_coef_arrays {");
  for (const ArrayInfo &C : S.CoefArrays) {
    W.line("  const " + std::string(elemTypeName(C.Elem)) + " *" + C.Name +
           ";");
    if (C.Extents.size() > 1)
      W.line("  long an5d_ext_" + C.Name + "[" + str(C.Extents.size() - 1) +
             "];");
  }
  W.line("  long an5d_origin;");
  if (S.stepsFromZero())
    W.line("  long an5d_time_first; // the time loop's first step as written");
  W.line("  long an5d_step; // the step the launch's level 1 computes");
  W.line("};");
  W.line("");
  std::string Step;
  switch (S.Form) {
  case StencilForm::TwoArrays:
    Step = "step >= 0 ? step / 2 : -((1 - step) / 2); // two steps per "
           "iteration";
    break;
  case StencilForm::PointerSwap:
  case StencilForm::CopyBack:
    Step = "step + c.an5d_time_first;";
    break;
  default:
    Step = "step;";
  }
  W.line("// The time loop's iterator as the C program has it at device step "
         "`step`.");
  W.line("__host__ __device__ __forceinline__ long an5d_time_of(const "
         "an5d_coef_arrays &c, long step)");
  W.open("");
  if (!S.stepsFromZero())
    W.line("(void)c;");
  W.line("return " + Step);
  W.close();
  W.line("");
}

std::string Emitter::timeAt(int64_t Level) const {
  return "an5d_time_of(coef_arrays, coef_arrays.an5d_step" +
         (Level > 1 ? " + " + str(Level - 1) : std::string()) + ")";
}

void Emitter::coefHeaderLine() {
  if (!passesCoefStruct())
    return;
  std::string List;
  for (size_t K = 0; K < S.CoefArrays.size(); ++K) {
    unsigned Reads = 0;
    for (const CoefAccess &R : S.CoefReads)
      Reads += R.Array == K;
    List += std::string(List.empty() ? "" : ", ") + S.CoefArrays[K].Name +
            " (" + elemTypeName(S.CoefArrays[K].Elem) + ", " + str(Reads) +
            (Reads == 1 ? " read)" : " reads)");
  }
  W.line("// Coefficient arrays, read-only, copied to the device once per "
         "run: " + List);
}

std::string Emitter::coefParams() const {
  return passesCoefStruct() ? ", an5d_coef_arrays coef_arrays" : "";
}

std::vector<unsigned> Emitter::coefDims() const {
  std::vector<unsigned> Dims;
  for (const CoefAccess &R : S.CoefReads)
    for (const CoefAccess::Subscript &X : R.Index)
      if (!X.Iter.empty() && X.Iter != S.Time.Iter) {
        unsigned G = gridDimOf(S, X.Iter);
        if (std::find(Dims.begin(), Dims.end(), G) == Dims.end())
          Dims.push_back(G);
      }
  std::sort(Dims.begin(), Dims.end());
  return Dims;
}

/// The subscript of read R along the streaming iterator, when it is the
/// only one that names it (else -1: the read keeps a line of its own).
static int rowSubscript(const Stencil &S, const CoefAccess &R) {
  int Found = -1, Count = 0;
  for (size_t D = 0; D < R.Index.size(); ++D)
    if (R.Index[D].Iter == S.Space[0].Iter) {
      Found = (int)D;
      ++Count;
    }
  return Count == 1 ? Found : -1;
}

/// Read R's text with its row subscript's offset left out: reads with the
/// same key differ only in the row they read.
static std::string lineKey(const Stencil &S, unsigned R) {
  const CoefAccess &A = S.CoefReads[R];
  int Row = rowSubscript(S, A);
  std::string Key = std::to_string(A.Array);
  for (size_t D = 0; D < A.Index.size(); ++D)
    Key += "|" + A.Index[D].Iter + "+" +
           ((int)D == Row ? std::string("*") : std::to_string(A.Index[D].Offset));
  return Row < 0 ? Key + "|read" + std::to_string(R) : Key;
}

std::vector<Emitter::CoefLine> Emitter::coefLines() const {
  std::vector<CoefLine> Lines;
  std::vector<std::string> Keys;
  for (unsigned R = 0; R < S.CoefReads.size(); ++R) {
    bool Moves = false;
    for (const CoefAccess::Subscript &X : S.CoefReads[R].Index)
      Moves = Moves || X.Iter == S.Space[0].Iter;
    if (!Moves)
      continue;
    int Row = rowSubscript(S, S.CoefReads[R]);
    int64_t A = Row < 0 ? 0 : S.CoefReads[R].Index[Row].Offset;
    std::string Key = lineKey(S, R);
    auto It = std::find(Keys.begin(), Keys.end(), Key);
    if (It == Keys.end()) {
      Keys.push_back(Key);
      Lines.push_back({R, A, A});
      continue;
    }
    CoefLine &L = Lines[It - Keys.begin()];
    L.Ahead = std::max(L.Ahead, A);
    L.Behind = std::min(L.Behind, A);
  }
  return Lines;
}

std::vector<Emitter::CoefValue> Emitter::coefValues() const {
  std::vector<CoefValue> Values;
  std::vector<std::string> Text = coefReadTexts(S);
  std::vector<CoefLine> Lines = coefLines();
  for (unsigned R = 0; R < S.CoefReads.size(); ++R) {
    bool Seen = false;
    for (const CoefValue &V : Values)
      Seen = Seen || Text[V.Read] == Text[R];
    if (Seen)
      continue;
    CoefValue V;
    V.Read = R;
    V.PerStep = S.CoefReads[R].TimeIndexed;
    for (unsigned L = 0; L < Lines.size(); ++L)
      if (lineKey(S, Lines[L].Read) == lineKey(S, R)) {
        int Row = rowSubscript(S, S.CoefReads[R]);
        V.Line = (int)L;
        V.Slot = Lines[L].Ahead -
                 (Row < 0 ? 0 : S.CoefReads[R].Index[Row].Offset);
      }
    Values.push_back(V);
  }
  return Values;
}

unsigned Emitter::coefValueOf(unsigned Read) const {
  std::vector<std::string> Text = coefReadTexts(S);
  std::vector<CoefValue> Values = coefValues();
  for (unsigned V = 0; V < Values.size(); ++V)
    if (Text[Values[V].Read] == Text[Read])
      return V;
  assert(false && "a coefficient read without its value");
  return 0;
}

std::string Emitter::coefValueParams() const {
  std::string R;
  std::vector<CoefValue> Values = coefValues();
  for (unsigned V = 0; V < Values.size(); ++V)
    R += ", " + coefType(Values[V].Read) + " coef_v" + str(V);
  if (S.ReadsTime)
    R += std::string(", ") + scalarTypeName(S.TimeType) + " an5d_time";
  return R;
}

/// Slot Slot of delay line Line: the element loaded Slot rows ago.
static std::string coefSlot(int Line, int64_t Slot) {
  return "coef_l" + str(Line) + "_d" + str(Slot);
}

/// The deepest slot of a line (rows Ahead .. Behind) that kernels of
/// degree Degree read.
static int64_t deepestSlot(int64_t Ahead, int64_t Behind, int64_t Degree,
                           int64_t Hi) {
  return (Degree - 1) * Hi + Ahead - Behind;
}

std::vector<std::string> Emitter::coefValueArgs(int64_t Level) const {
  std::vector<std::string> Args;
  for (const CoefValue &V : coefValues()) {
    assert(Level >= 1 && "coefficient values are read by levels 1 .. D");
    if (V.PerStep) {
      Args.push_back(coefLoad(V.Read, nullptr, std::nullopt, timeAt(Level)));
      continue;
    }
    Args.push_back((V.Line >= 0
                        ? coefSlot(V.Line, (Level - 1) * P.Hi[0] + V.Slot)
                        : "coef_v" + str(coefValueOf(V.Read))) +
                   cellSuffix());
  }
  if (S.ReadsTime)
    Args.push_back(std::string("(") + scalarTypeName(S.TimeType) + ")" +
                   timeAt(Level));
  return Args;
}

void Emitter::coefSetup(const KernelPlan &K) {
  if (!passesCoefStruct())
    return;
  // A thread's cells differ along dimension 1 only (cellIt).
  for (unsigned G : coefDims())
    if (G == 1 || (G > 1 && Cell == 0))
      W.line("const int coef_" + cellIt(G) + " = min(max(" + cellIt(G) +
             ", " + First[G] + "), " + Last[G] +
             "); // its coefficients' column");
  auto Coord = [this](unsigned G) { return "coef_" + cellIt(G); };
  std::vector<std::string> Text = coefReadTexts(S);
  std::vector<CoefValue> Values = coefValues();
  for (unsigned V = 0; V < Values.size(); ++V)
    if (Values[V].Line < 0 && !Values[V].PerStep)
      W.line("const " + coefType(Values[V].Read) + " coef_v" + str(V) +
             cellSuffix() + " = " + coefLoad(Values[V].Read, Coord) +
             "; // " + Text[Values[V].Read] + ", the same in every row");
  std::vector<CoefLine> Lines = coefLines();
  for (unsigned L = 0; L < Lines.size(); ++L) {
    std::string Decl;
    for (int64_t D = 0; D <= deepestSlot(Lines[L].Ahead, Lines[L].Behind, K.Degree, P.Hi[0]); ++D)
      Decl += std::string(D ? ", " : "") + coefSlot(L, D) + cellSuffix() +
              " = 0";
    W.line(coefType(Lines[L].Read) + " " + Decl + "; // " +
           Text[Lines[L].Read] + " and the other rows levels 1 .. " +
           str(K.Degree) + " read");
  }
}

void Emitter::coefRowLoads(const KernelPlan &K) {
  std::vector<CoefLine> Lines = coefLines();
  if (Lines.empty())
    return;
  KernelOp &C = op(KernelOpKind::Code);
  std::string Row = plus(It[0], -P.Hi[0]);
  // Line L takes row Row + Ahead, kept within the rows interior cells read
  // (first + Behind .. last + Ahead): the slot an interior cell's level
  // reads then holds exactly its row.
  C.Src = "// coefficients for row " + Row + " (level 1's) and the rows "
          "ahead it reads: each line's rows move one slot on\n{";
  for (unsigned L = 0; L < Lines.size(); ++L)
    C.Src += "\n  const int coef_row" + str(L) + " = min(max(" +
             plus(Row, Lines[L].Ahead) + ", " +
             plus(First[0], Lines[L].Behind) + "), " +
             plus(Last[0], Lines[L].Ahead) + ");";
  eachCell([&] {
    for (unsigned L = 0; L < Lines.size(); ++L) {
      auto Coord = [this, L](unsigned G) {
        return G == 0 ? "coef_row" + str(L) : "coef_" + cellIt(G);
      };
      for (int64_t D = deepestSlot(Lines[L].Ahead, Lines[L].Behind,
                                   K.Degree, P.Hi[0]);
           D >= 1; --D)
        C.Src += "\n  " + coefSlot(L, D) + cellSuffix() + " = " +
                 coefSlot(L, D - 1) + cellSuffix() + ";";
      C.Src += "\n  " + coefSlot(L, 0) + cellSuffix() + " = " +
               coefLoad(Lines[L].Read, Coord, 0) + ";";
    }
  });
  C.Src += "\n}";
}

std::string Emitter::coefType(unsigned Read) const {
  return elemTypeName(S.CoefArrays[S.CoefReads[Read].Array].Elem);
}

std::string
Emitter::coefLoad(unsigned Read,
                  const std::function<std::string(unsigned)> &Coord,
                  std::optional<int64_t> RowOffset,
                  const std::string &Time) const {
  const CoefAccess &R = S.CoefReads[Read];
  const ArrayInfo &C = S.CoefArrays[R.Array];
  std::string Index;
  for (size_t D = 0; D < R.Index.size(); ++D) {
    const CoefAccess::Subscript &X = R.Index[D];
    std::string At = str(X.Offset);
    if (X.Iter == S.Time.Iter) {
      assert(!Time.empty() && "a read at the time step needs the step");
      At = plus("(" + Time + ")", X.Offset);
    } else if (!X.Iter.empty()) {
      unsigned G = gridDimOf(S, X.Iter);
      std::string Base = Coord(G);
      if (G == 0)
        Base += " + coef_arrays.an5d_origin";
      At = plus(Base, G == 0 && RowOffset ? *RowOffset : X.Offset);
    }
    if (D == 0)
      Index = R.Index.size() > 1 ? "(long)(" + At + ")" : At;
    else
      Index = (D > 1 ? "(" + Index + ")" : Index) + " * coef_arrays." +
              extentMember(C, D) + " + " + At;
  }
  return "__ldg(coef_arrays." + C.Name + " + " + Index + ")";
}

std::string Emitter::coefRunParams() const {
  std::string R;
  if (passesCoefStruct() && S.stepsFromZero())
    R += ", long time_first";
  for (size_t K = 0; K < S.CoefArrays.size(); ++K) {
    const ArrayInfo &C = S.CoefArrays[K];
    R += ", const " + std::string(elemTypeName(C.Elem)) + " *coef_host" +
         str(K);
    for (size_t D = 0; D < C.Extents.size(); ++D)
      R += ", long coef_ext" + str(K) + "_" + str(D);
  }
  return R;
}

std::string Emitter::coefRunArgs() const {
  std::string R;
  if (passesCoefStruct() && S.stepsFromZero())
    R += ", (long)(" + S.WrittenTime.Lower.str(wide) + ")";
  for (size_t K = 0; K < S.CoefArrays.size(); ++K) {
    const ArrayInfo &C = S.CoefArrays[K];
    std::string Zeros;
    for (size_t D = 0; D < C.Extents.size(); ++D)
      Zeros += "[0]";
    R += ", (const " + std::string(elemTypeName(C.Elem)) + " *)&" + C.Name +
         Zeros;
    // The first extent: the rows the interior cells read (a pointer's is
    // not declared, and a parameter's declared one binds nothing in C).
    // Subscripts with the same variable part need only the largest
    // constant; others are compared at run time.
    std::map<std::map<std::string, int64_t>, int64_t> Highest;
    for (const CoefAccess &A : S.CoefReads) {
      if (A.Array != K)
        continue;
      const CoefAccess::Subscript &X = A.Index[0];
      AffineExpr Top = AffineExpr::constant(X.Offset + 1);
      if (X.Iter == S.Time.Iter)
        Top = Top + S.timeLoopAsWritten().Upper;
      else if (!X.Iter.empty())
        Top = Top + S.Space[gridDimOf(S, X.Iter)].Upper;
      auto [It, New] = Highest.emplace(Top.Coeffs, Top.Constant);
      if (!New)
        It->second = std::max(It->second, Top.Constant);
    }
    std::string Rows;
    for (const auto &[Coeffs, Constant] : Highest) {
      AffineExpr Top = AffineExpr::constant(Constant);
      Top.Coeffs = Coeffs;
      std::string T = "(long)(" + Top.str(wide) + ")";
      Rows = Rows.empty() ? T : "an5d_max_rows(" + Rows + ", " + T + ")";
    }
    R += ", " + Rows;
    for (size_t D = 1; D < C.Extents.size(); ++D)
      R += ", (long)(" + C.ExtentText[D] + ")";
  }
  return R;
}

void Emitter::coefUpload() {
  if (!passesCoefStruct())
    return;
  W.line("// The coefficient arrays on the device (read-only; freed on "
         "return).");
  for (size_t K = 0; K < S.CoefArrays.size(); ++K) {
    const ArrayInfo &C = S.CoefArrays[K];
    std::string Cells =
        "(size_t)(coef_ext" + str(K) + "_0 > 0 ? coef_ext" + str(K) +
        "_0 : 0)";
    for (size_t D = 1; D < C.Extents.size(); ++D)
      Cells += " * coef_ext" + str(K) + "_" + str(D);
    W.line("const an5d_coef_copy coef_copy" + str(K) + "(coef_host" + str(K) +
           ", " + Cells + " * sizeof(" + elemTypeName(C.Elem) + "));");
  }
  W.line("an5d_coef_arrays coef_arrays;");
  for (size_t K = 0; K < S.CoefArrays.size(); ++K) {
    const ArrayInfo &C = S.CoefArrays[K];
    W.line("coef_arrays." + C.Name + " = (const " + elemTypeName(C.Elem) +
           " *)coef_copy" + str(K) + ".device;");
    for (size_t D = 1; D < C.Extents.size(); ++D)
      W.line("coef_arrays." + extentMember(C, D) + " = coef_ext" + str(K) +
             "_" + str(D) + ";");
  }
  W.line("coef_arrays.an5d_origin = 0;");
  if (S.stepsFromZero())
    W.line("coef_arrays.an5d_time_first = time_first;");
  W.line("coef_arrays.an5d_step = t_first; // each launch sets its own");
}
