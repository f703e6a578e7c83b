//===- N5DKernels.cpp - The N.5D kernels ----------------------------------===//
//
// One kernel per degree 1..bT (AN5D section 4.1). Each block streams along
// the outermost dimension; per streamed row it loads level 0 and computes
// levels 1..D, one __syncthreads per level with double-buffered shared
// memory. The general and star kernels keep a register ring of rows per
// level and call an5d_update; the associative kernel keeps partial sums
// instead (Emitter::assocStep).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include <algorithm>
#include <cassert>

using namespace an5d;
using namespace an5d::codegen;

std::string Emitter::sharedIndex(int64_t Row, const std::vector<int64_t> &O,
                                 const std::string &Col) const {
  std::string Idx;
  if (Row > 0)
    Idx = (Row == 1 ? std::string("") : str(Row) + " * ") + "AN5D_SM_PLANE + ";
  Idx += Col;
  if (N == 3 && O[1] != 0) {
    int64_t M = O[1] < 0 ? -O[1] : O[1];
    Idx += std::string(O[1] < 0 ? " - " : " + ") +
           (M == 1 ? std::string("") : str(M) + " * ") + "AN5D_SM_WIDTH";
  }
  return plus(Idx, O[N - 1]);
}

std::string Emitter::neighbourName(const std::vector<int64_t> &O) const {
  std::string Name = "nb";
  for (unsigned D = 1; D < N; ++D)
    Name += "_" + offsetName(O[D]);
  return Name;
}

std::string Emitter::accType() const {
  // The sum's own type, not the update's: C adds the terms of
  // 'w * (a + b + c)' in float when they are float, whatever w's type.
  ScalarType T = A.Associative && A.Associative->Sum
                     ? A.Associative->Sum->Type
                     : S.Update.Type;
  if (T == ScalarType::Float || T == ScalarType::Double ||
      T == ScalarType::LongDouble)
    return scalarTypeName(T);
  return Elem;
}

static bool ownColumn(const std::vector<int64_t> &O) {
  for (size_t D = 1; D < O.size(); ++D)
    if (O[D] != 0)
      return false;
  return true;
}

void Emitter::updateFunction() {
  if (P.Kernel == KernelKind::Assoc)
    assocFunctions();
  else
    generalUpdateFunction();
}

std::vector<std::vector<int64_t>> Emitter::cellNeighbourReads() const {
  std::vector<std::vector<int64_t>> Offsets;
  if (!adjacentCells())
    return Offsets;
  for (const std::vector<int64_t> &O : A.ReadOffsets) {
    int64_t Dj = O[1] < 0 ? -O[1] : O[1];
    if (O[2] == 0 && Dj != 0 && Dj < P.Cells &&
        std::find(Offsets.begin(), Offsets.end(), O) == Offsets.end())
      Offsets.push_back(O);
  }
  return Offsets;
}

std::vector<std::vector<int64_t>> Emitter::cellNeighbourPlane() const {
  std::vector<std::vector<int64_t>> Plane;
  for (std::vector<int64_t> O : cellNeighbourReads()) {
    O[0] = 0;
    if (std::find(Plane.begin(), Plane.end(), O) == Plane.end())
      Plane.push_back(O);
  }
  return Plane;
}

std::string Emitter::cellNeighbourName(const std::vector<int64_t> &O) const {
  return "nb_" + offsetName(O[0]) + "_" + offsetName(O[1]) + "_" +
         offsetName(O[2]);
}

std::string Emitter::cellNeighbourArg(const std::vector<int64_t> &O,
                                      const std::string &Buf, int64_t Level,
                                      int64_t Phase) {
  bool Assoc = P.Kernel == KernelKind::Assoc;
  int64_t Target = Cell + O[1];
  if (Target < 0 || Target >= P.Cells)
    return "AN5D_SM(" + Buf + ", " +
           sharedIndex(Assoc ? 0 : P.sharedRowOf(O[0]), O, colOf()) + ")";
  // The other cell's value is what it stored into the buffer.
  int64_t Own = Cell;
  Cell = Target;
  std::string Value =
      Assoc ? incoming() : reg(Level - 1, slotOf(Phase, O[0]));
  Cell = Own;
  return Value;
}

Operand Emitter::cellNeighbourOperand(const std::vector<int64_t> &O,
                                      const std::string &Buf, int64_t Level,
                                      int64_t Phase) {
  bool Assoc = P.Kernel == KernelKind::Assoc;
  // The row the neighbour lies in: the associative kernel's incoming row,
  // else offset O[0] from the row level Level computes.
  int64_t Row = Assoc ? -(Level - 1) * P.Hi[0] : O[0] - Level * P.Hi[0];
  int64_t Target = Cell + O[1];
  if (Target < 0 || Target >= P.Cells)
    return bufferValue(Buf, Assoc ? 0 : P.sharedRowOf(O[0]), Level - 1, Row);
  int64_t Own = Cell;
  Cell = Target;
  Operand R = regValue(Assoc ? incoming() : reg(Level - 1, slotOf(Phase, O[0])),
                       Level - 1, Row);
  Cell = Own;
  return R;
}

void Emitter::generalUpdateFunction() {
  std::vector<std::vector<int64_t>> InThread = cellNeighbourReads();
  std::vector<std::string> Reads;
  for (size_t R = 0; R < S.Reads.size(); ++R) {
    const std::vector<int64_t> &O = A.ReadOffsets[R];
    if (threeLevels() && A.OlderRead[R]) {
      Reads.push_back("older");
      continue;
    }
    if (ownColumn(O)) {
      Reads.push_back("own_" + offsetName(O[0]));
      continue;
    }
    if (std::find(InThread.begin(), InThread.end(), O) != InThread.end()) {
      Reads.push_back(cellNeighbourName(O));
      continue;
    }
    int64_t Row = P.sharedRowOf(O[0]);
    assert(Row >= 0 && "a read at another column must have a shared row");
    Reads.push_back("AN5D_SM(sm, " + sharedIndex(Row, O) + ")");
  }
  // Parameters the expression does not read stay unnamed (no warnings).
  auto param = [&](const std::string &Type, const std::string &Name) {
    bool Used = std::find(Reads.begin(), Reads.end(), Name) != Reads.end();
    if (Name == "sm" || Name == "col")
      Used = !P.scalar().SharedRows.empty();
    std::string Sep = Type.back() == '*' ? "" : " ";
    return Type + (Used ? Sep + Name : " /* " + Name + ": not read */");
  };
  std::string Own;
  for (int64_t O = -P.Lo[0]; O <= P.Hi[0]; ++O)
    Own += ", " + param(Elem, "own_" + offsetName(O));
  for (const std::vector<int64_t> &O : InThread)
    Own += ", " + param(Elem, cellNeighbourName(O));
  if (threeLevels())
    Own += ", " + param(Elem, "older");
  W.line("// The update of one cell (the statement of the scop) from the "
         "previous level:");
  W.line("// cells of other columns from shared memory (sm: one buffer, col: "
         "this thread's");
  W.line("// cell in a padded plane, one plane per row offset), this "
         "thread's own column from");
  W.line("// registers (own_m1, own_0, own_p1: rows " + It[0] + " - 1, " +
         It[0] + ", " + It[0] + " + 1).");
  if (threeLevels())
    W.line("// older: this cell two levels back (the step before the "
           "previous one).");
  if (!InThread.empty()) {
    W.line("// nb_<" + It[0] + ">_<" + It[1] + ">_<" + It[2] +
           ">: a neighbour along " + It[1] +
           " that may be another of this thread's cells: the");
    W.line("// caller passes that cell's register, or else its read from "
           "shared memory.");
  }
  checkedTemplate();
  W.line("__device__ __forceinline__ " + Elem + " an5d_update(" +
         param("const " + Elem + " *", "sm") + ", " + param("int", "col") +
         Own + deviceParams() + ")");
  W.open("");
  std::vector<std::string> CoefText;
  for (size_t R = 0; R < S.CoefReads.size(); ++R)
    CoefText.push_back("coef_v" + str(coefValueOf(R)));
  W.line("return " +
         printUpdate(S.Update, Reads, ScalarName, Coefs, A, Checked,
                     CoefText, "an5d_time") +
         ";");
  W.close();
  W.line("");
}


namespace {
/// One term of a partial sum waiting in an5d_accumulate: its text and the
/// neighbours (in-plane offsets) it reads besides this column's own cell.
struct PendingTerm {
  std::string Text;
  std::vector<std::vector<int64_t>> Needs;
};
} // namespace

void Emitter::assocFunctions() {
  const AssociativeForm &F = *A.Associative;
  std::vector<int64_t> Planes = termPlanes(F);
  std::string Acc = accType();
  std::vector<std::string> Reads;
  for (const std::vector<int64_t> &O : A.ReadOffsets)
    Reads.push_back(ownColumn(O) ? "own" : neighbourName(O));
  // Each plane's terms in source order (the constant terms first, in the
  // first plane's sum): the order every partial sum adds them in.
  std::vector<std::vector<PendingTerm>> Pending(Planes.size());
  bool UsesOwn = false;
  for (size_t PI = 0; PI < Planes.size(); ++PI) {
    bool Started = PI != 0;
    auto add = [&](const AssociativeForm::Term &T) {
      PendingTerm PT;
      std::string Term =
          printUpdate(*T.E, Reads, ScalarName, Coefs, A, Checked);
      std::string Sum = "acc_" + offsetName(Planes[PI]);
      if (!Started)
        PT.Text = Sum + " = " + (T.Negated ? "-(" + Term + ")" : Term) + ";";
      else
        PT.Text = Sum + " = " + Sum + (T.Negated ? " - " : " + ") + "(" +
                  Term + ");";
      Started = true;
      std::vector<unsigned> Idx;
      collectReads(*T.E, Idx);
      for (unsigned R : Idx) {
        const std::vector<int64_t> &O = A.ReadOffsets[R];
        UsesOwn = UsesOwn || ownColumn(O);
        if (ownColumn(O))
          continue;
        std::vector<int64_t> In = O;
        In[0] = 0;
        if (std::find(PT.Needs.begin(), PT.Needs.end(), In) == PT.Needs.end())
          PT.Needs.push_back(In);
      }
      Pending[PI].push_back(PT);
    };
    if (PI == 0)
      for (const AssociativeForm::Term &T : F.Terms)
        if (!T.ReadsArray)
          add(T);
    for (const AssociativeForm::Term &T : F.Terms)
      if (T.ReadsArray && T.Plane == Planes[PI])
        add(T);
  }
  bool Shared = !P.scalar().SharedRows.empty();
  W.line("// The update as partial sums (associative kernel, AN5D section "
         "4.2): when row x of the");
  W.line("// previous level arrives (own: this column's cell; sm, col: the "
         "row in shared memory),");
  W.line("// an5d_accumulate adds its terms to the partial sum of every row "
         "that reads it: acc_o");
  W.line("// is the sum of row x - o, which reads row x at offset o. Each "
         "neighbour is loaded once");
  W.line("// and added to every sum that reads it before the next is "
         "loaded, so few values are live;");
  W.line("// each sum adds its terms in source order. The first offset's "
         "sum starts there;");
  W.line("// an5d_finish applies the outer factor.");
  // Neighbours that may be another of this thread's cells come in as
  // parameters: that cell's incoming value, or the caller's shared read.
  std::vector<std::vector<int64_t>> InThread = cellNeighbourPlane();
  if (!InThread.empty())
    W.line("// nb_<" + It[1] + ">_<" + It[2] +
           "> parameters: neighbours along " + It[1] +
           " that may be another of this thread's cells.");
  std::string Params;
  if (Shared)
    Params = "const " + Elem + " *sm, int col, ";
  Params += Elem + (UsesOwn ? " own" : " /* own: not read */");
  for (int64_t Pl : Planes)
    Params += ", " + Acc + " &acc_" + offsetName(Pl);
  for (const std::vector<int64_t> &O : InThread)
    Params += ", " + Elem + " " + neighbourName(O);
  checkedTemplate(termsDivide());
  W.line("__device__ __forceinline__ void an5d_accumulate(" + Params +
         deviceParams(termsDivide()) + ")");
  W.open("");
  std::vector<std::vector<int64_t>> Loaded = InThread;
  std::vector<size_t> Next(Planes.size(), 0);
  auto ready = [&](const PendingTerm &T) {
    for (const std::vector<int64_t> &O : T.Needs)
      if (std::find(Loaded.begin(), Loaded.end(), O) == Loaded.end())
        return false;
    return true;
  };
  for (;;) {
    for (size_t PI = 0; PI < Planes.size(); ++PI)
      while (Next[PI] < Pending[PI].size() && ready(Pending[PI][Next[PI]]))
        W.line(Pending[PI][Next[PI]++].Text);
    // Load what the first waiting sum's next term reads first.
    const PendingTerm *Waiting = nullptr;
    for (size_t PI = 0; PI < Planes.size() && !Waiting; ++PI)
      if (Next[PI] < Pending[PI].size())
        Waiting = &Pending[PI][Next[PI]];
    if (!Waiting)
      break;
    for (const std::vector<int64_t> &O : Waiting->Needs) {
      if (std::find(Loaded.begin(), Loaded.end(), O) != Loaded.end())
        continue;
      W.line("const " + Elem + " " + neighbourName(O) + " = AN5D_SM(sm, " +
             sharedIndex(0, O) + ");");
      Loaded.push_back(O);
      break;
    }
  }
  W.close();
  W.line("");
  // A division by a proved constant goes through its helper, which
  // divisionHelpers() wrote for this very node of the update.
  std::optional<ExactHelper> Exact =
      F.Outer ? exactHelper(A, *F.Outer) : std::nullopt;
  std::string Finish = "acc";
  if (Exact)
    Finish = checkedName(Exact->Helper) + "(acc" +
             (Checked ? ", an5d_unproved" : "") + ")";
  else if (!F.OuterOp.empty())
    Finish = "acc " + F.OuterOp + " (" +
             printUpdate(*F.Factor, {}, ScalarName, Coefs, A, Checked) + ")";
  checkedTemplate(finishDivides());
  W.line("__device__ __forceinline__ " + Elem + " an5d_finish(" + Acc +
         " acc" + deviceParams(finishDivides()) + ")");
  W.open("");
  W.line("return " + Finish + ";");
  W.close();
  W.line("");
}

// --- 4. Kernels ------------------------------------------------------------------

void Emitter::kernelSetup(const KernelPlan &K) {
  int64_t D = K.Degree;
  if (!P.scalar().SharedRows.empty()) {
    W.line("AN5D_DYNAMIC_SHARED(" + Elem + ", " + std::string(DynamicShared) + ");");
    W.line("// Zero both shared buffers once: the pads around the block stay "
           "zero.");
    W.line("for (int cell = " + threadIndex() +
           "; cell < 2 * AN5D_SM_BUFFER; cell += AN5D_THREADS)");
    W.indent();
    W.line(std::string(DynamicShared) + "[cell] = " + zero() + ";");
    W.dedent();
    W.line("__syncthreads();");
    W.line(Elem + " *const sm_buffer0 = " + std::string(DynamicShared) + ";");
    W.line(Elem + " *const sm_buffer1 = " + std::string(DynamicShared) + " + AN5D_SM_BUFFER;");
  } else {
    W.line("// Every read is in this thread's own column: no shared memory.");
  }
  planeSizeLine();
  W.line("const " + Elem + " *in = grid + in_plane * plane;");
  if (threeLevels()) {
    W.line("// Level l of the run lives in plane l mod AN5D_PLANES: the "
           "launch reads levels -1 and 0");
    W.line("// and writes level " + str(D) +
           (D > 1 ? " and level " + str(D - 1) : std::string()) + ".");
    W.line("const " + Elem + " *older = grid + " + planeAfter("in_plane", -1) +
           " * plane;");
    W.line(Elem + " *out = grid + " + planeAfter("in_plane", D) +
           " * plane;");
    for (int64_t Back = 1; Back <= storedBack(D); ++Back)
      W.line(Elem + " *out" + str(Back) + " = grid + " +
             planeAfter("in_plane", D - Back) + " * plane;");
  } else {
    W.line(Elem + " *out = grid + (in_plane ^ 1) * plane;");
  }
  W.line("// This thread's cell: the block's output tile starts at tile_*, "
         "after a halo of");
  if (P.haloRows())
    W.line("// " + str(D) + " * reach threads on each side along " + It[2] +
           ", " + str(D - 1) + " * reach along " + It[1] +
           " (they compute values that are never stored).");
  else
    W.line("// " + str(D) + " * reach threads on each side (they compute "
           "values that are never stored).");
  std::vector<std::string> Thread = {"", N == 2 ? "threadIdx.x" : "threadIdx.y",
                                     "threadIdx.x"};
  tileOfBlock();
  std::string Col;
  for (unsigned Dm = 1; Dm < N; ++Dm) {
    int64_t TileW = K.Tile[Dm - 1];
    // The interior tiles' kernel's last tile may have moved back to end at
    // the last column (an5d_tile_range); an edge tile's is where it is.
    std::string Start = "block_" + It[Dm] + " * " + str(TileW);
    if (!EdgeTiles)
      Start = "min(" + Start + ", " +
              plus(Last[Dm] + " - " + First[Dm], 1 - TileW) + ")";
    W.line("const int tile_" + It[Dm] + " = " + First[Dm] + " + " + Start +
           ";");
    std::string Thr = "(int)" + Thread[Dm];
    if (Dm == 1 && adjacentCells())
      Thr += " * AN5D_CELLS";
    W.line("const int " + It[Dm] + " = " +
           plus("tile_" + It[Dm], -P.haloDegrees(Dm - 1, D) * P.Lo[Dm]) +
           " + " + Thr + ";");
  }
  if (N == 2)
    Col = plus("(int)threadIdx.x", P.Lo[1]);
  else
    Col = "((int)threadIdx.y" +
          std::string(adjacentCells() ? " * AN5D_CELLS" : "") + " + " +
          str(P.Lo[1]) + ") * AN5D_SM_WIDTH + " +
          plus("(int)threadIdx.x", P.Lo[2]);
  W.line("const int col = " + Col + "; // in the padded shared plane");
  if (P.Cells > 1) {
    if (adjacentCells())
      W.line("// This thread's cells are " + str(P.Cells) + " adjacent " +
             It[1] + " rows (neighbours it reads for several of them are "
             "loaded once); cell c's variables end in _c<c>.");
    else
      W.line("// This thread's other cells lie AN5D_BLOCK_X apart along " +
             It[1] + " (coalesced, no bank conflicts); cell c's variables "
             "end in _c<c>.");
    eachCell([&] {
      W.line("const int " + It[1] + cellSuffix() + " = " + It[1] + " + " +
             (adjacentCells() ? str(Cell)
                              : str(Cell) + " * AN5D_BLOCK_X") + ";");
    }, 1);
  }
  eachCell([&] {
    std::string Interior, Stores;
    for (unsigned Dm = 1; Dm < N; ++Dm) {
      std::string C = cellIt(Dm);
      Interior += std::string(Interior.empty() ? "" : " && ") + C + " >= " +
                  First[Dm] + " && " + C + " <= " + Last[Dm];
      Stores += " && " + C + " >= tile_" + It[Dm] + " && " + C +
                " < tile_" + It[Dm] + " + " + str(K.Tile[Dm - 1]);
    }
    W.line("const bool cell_interior" + cellSuffix() + " = " + Interior +
           ";");
    W.line("const bool cell_stores" + cellSuffix() + " = cell_interior" +
           cellSuffix() + Stores + ";");
    coefSetup(K);
  });
  // The emulated tests check that the host's tile ranges give each kernel
  // exactly the tiles its tests are written for.
  W.raw("#ifdef AN5D_EMULATION");
  W.line("if (" + std::string(EdgeTiles ? "" : "!") + "(" +
         blockColumnsTest(K) + "))");
  W.indent();
  W.line("an5d_emu_fail(\"" + kernelName(D, EdgeTiles) +
         ": a tile of the other kernel\");");
  W.dedent();
  W.raw("#endif");
  if (P.haloRows())
    haloSetup();
  std::string SB = N == 2 || EdgeTiles ? "(block_y0 + (int)blockIdx.y)"
                                       : "(block_z0 + (int)blockIdx.z)";
  W.line("// Rows: the block writes rows row_first .. row_last of " + It[0] +
         "; level 0 streams from");
  W.line("// row_first - " + str(D * P.Lo[0]) + " to row_last + " +
         str(D * P.Hi[0]) + ", level L lags " + str(P.Hi[0]) +
         " * L rows behind it.");
  W.line("const int row_first = " + First[0] + " + " + SB +
         " * AN5D_STREAM_BLOCK;");
  // A distance from row_first: row_first + hSN - 1 may pass INT_MAX.
  W.line("const int row_last = row_first + min(" + Last[0] +
         " - row_first, AN5D_STREAM_BLOCK - 1);");
  W.line("const int stream_last = " + plus("row_last", D * P.Hi[0]) + ";");
  if (P.Kernel == KernelKind::Assoc) {
    W.line("// acc_L_S: partial sum of level L for the row in slot S (the "
           "row whose own row");
    W.line("// arrives in unrolled phase q sits in slot q % " + str(P.Ring) +
           "); incoming: the row a level receives.");
    eachCell([&] {
      for (int64_t L = 1; L <= D; ++L) {
        std::string Decl = accType();
        for (int64_t Sl = 0; Sl < P.Ring; ++Sl)
          Decl += std::string(Sl ? "," : "") + " " + accName(L, Sl) + " = " +
                  zero();
        W.line(Decl + ";");
      }
      W.line(Elem + " " + incoming() + ";");
    });
  } else {
    W.line("// reg_L_S: level L (L steps after the launch's input) of the "
           "row in ring slot S;");
    W.line("// the row loaded in unrolled phase q goes to slot q % " +
           str(P.Ring) + " at every level.");
    eachCell([&] {
      for (int64_t L = 0; L < D; ++L) {
        std::string Decl = Elem;
        for (int64_t Sl = 0; Sl < P.Ring; ++Sl)
          Decl += std::string(Sl ? "," : "") + " " + reg(L, Sl) + " = " +
                  zero();
        W.line(Decl + ";");
      }
    });
  }
  W.line("int " + It[0] + " = " + plus("row_first", -D * P.Lo[0]) +
         "; // the row level 0 loads");
  std::string Stride = "(long)" + Ext[1] + (N == 3 ? " * " + Ext[2] : "");
  std::string Column = N == 2 ? It[1]
                              : "(long)" + It[1] + " * " + Ext[2] + " + " +
                                    It[2];
  W.line("const long row_stride = " + Stride + ";");
  W.line("const unsigned row_span = (unsigned)(" + Last[0] + " - " +
         First[0] + ");");
  W.line("const unsigned store_span = (unsigned)(row_last - row_first);");
  W.line("// This column's cell in the next row level 0 reads and in the "
         "next row level " + str(D) + " stores.");
  W.line("const " + Elem + " *in_next = in + " + Column + " + (long)(" +
         plus(It[0], P.Prefetch) + ") * row_stride;");
  W.line(Elem + " *out_next = out + " + Column + " + (long)(" +
         plus(It[0], -D * P.Hi[0]) + ") * row_stride;");
  if (threeLevels()) {
    W.line("const " + Elem + " *older_next = older + " + Column +
           " + (long)(" + plus(It[0], -P.Hi[0]) + ") * row_stride;");
    for (int64_t Back = 1; Back <= storedBack(D); ++Back)
      W.line(Elem + " *out" + str(Back) + "_next = out" + str(Back) + " + " +
             Column + " + (long)(" + plus(It[0], -(D - Back) * P.Hi[0]) +
             ") * row_stride;");
    // Level 1's older values of the first rows, loaded ahead as in the loop.
    olderRing(K);
    W.line("// Level 1 reads the older plane " + str(OlderAhead) + " row" +
           (OlderAhead == 1 ? "" : "s") + " ahead: older_S holds the row of "
           "unrolled phase q in slot (q + " + str(OlderAhead) + ") % " +
           str(OlderSlots) + ".");
    eachCell([&] {
      std::string Decl = Elem;
      for (int64_t Sl = 0; Sl < OlderSlots; ++Sl)
        Decl += std::string(Sl ? "," : "") + " " + olderName(Sl);
      W.line(Decl + ";");
      for (int64_t F = 0; F < OlderAhead; ++F) {
        std::string Test;
        std::string Load = olderLoad(plus(It[0], F - P.Hi[0]), F, Test);
        codeOp(olderName(F) + " = " + Test + " ? " + Load + " : " + zero() +
                   ";",
               {regValue(olderName(F), -1, F - P.Hi[0])});
      }
    });
  }
  if (K.AheadSlots) {
    W.line("// Level 0 is copied " + str(P.Prefetch) + " row" +
           (P.Prefetch == 1 ? "" : "s") + " ahead into this thread's "
           "shared slots (row x in slot");
    W.line("// x mod " + str(K.AheadSlots) + " relative to the first), so "
           "global-memory latency overlaps the");
    W.line("// levels of the rows before; __syncthreads does not wait for "
           "these copies.");
    W.line(Elem + " *const ahead_rows = " + std::string(DynamicShared) + " + 2 * AN5D_SM_BUFFER + " +
           threadIndex() + ";");
    if (P.haloRows())
      W.line(Elem + " *const halo_rows = " + std::string(DynamicShared) + " + 2 * AN5D_SM_BUFFER + "
             "AN5D_AHEAD_SLOTS * AN5D_THREADS" +
             std::string(P.Cells > 1 ? " * AN5D_CELLS" : "") + " + " +
             threadIndex() + "; // halo threads only");
    for (int64_t F = 0; F < P.Prefetch; ++F)
      aheadCopy(K, F, P.Prefetch - F, F);
  } else if (P.Prefetch > 0) {
    W.line("// Level 0 is read " + str(P.Prefetch) + " row" +
           (P.Prefetch == 1 ? "" : "s") + " ahead (ahead_0 is row " + It[0] +
           "), so global-memory latency");
    W.line("// overlaps the levels of the rows before.");
    eachCell([&] {
      std::string Decl = Elem;
      std::vector<Operand> Loaded;
      for (int64_t F = 0; F < P.Prefetch; ++F) {
        std::string Name = "ahead_" + str(F) + cellSuffix();
        Decl += std::string(F ? "," : "") + " " + Name + " = " +
                levelZeroLoad(plus(It[0], F),
                              inCell(P.Prefetch - F, /*Address=*/false));
        Loaded.push_back(regValue(Name, 0, F));
      }
      codeOp(Decl + ";", std::move(Loaded));
    });
  }
}

void Emitter::haloSetup() {
  const std::string &J = It[1], &K = It[2];
  std::string Lo = str(P.Lo[1]), Span = str(P.span(0));
  std::string Ty = "(int)threadIdx.y";
  // j of the block's first thread row.
  std::string Start =
      "(" + J + " - " + Ty + (adjacentCells() ? " * AN5D_CELLS" : "") + ")";
  W.line("// Halo rows: the first " + str(P.Lo[1] + P.Hi[1]) +
         " rows of threads also copy level 0 of one cell of the " + Lo + " + " +
         str(P.Hi[1]) + " rows just");
  W.line("// outside the block along " + J +
         ", which no thread computes, and share it at level 1.");
  W.line("const bool halo_thread = " + Ty + " < " +
         str(P.Lo[1] + P.Hi[1]) + ";");
  W.line("const int " + J + "_halo = " + Start + " + (" + Ty + " < " + Lo +
         " ? " + Ty + " - " + Lo + " : " + Ty + " + " +
         str(P.span(0) - P.Lo[1]) + ");");
  W.line("const int col_halo = (" + Ty + " < " + Lo + " ? " + Ty + " : " +
         Ty + " + " + Span + ") * AN5D_SM_WIDTH + " +
         plus("(int)threadIdx.x", P.Lo[2]) + ";");
  // Only the edge kernels test cells; the interior tiles' halo rows are inside.
  if (EdgeTiles)
    W.line("const bool cell_interior_halo = " + J + "_halo >= " + First[1] +
           " && " + J + "_halo <= " + Last[1] + " && " + K + " >= " +
           First[2] + " && " + K + " <= " + Last[2] + ";");
  W.line("const long halo_shift = (long)(" + J + "_halo - " + J + ") * " +
         Ext[2] + ";");
}

std::string Emitter::levelZeroLoad(const std::string &Row,
                                   const std::string &Cell) const {
  if (Checks == Tests::None)
    return Cell;
  return interiorTest(Row) + " ? " + Cell + " : " +
         boundaryValue("bnd_plane", Row);
}

std::string Emitter::boundaryValue(const std::string &PlaneIndex,
                                   const std::string &Row) const {
  return boundaryCall(EdgeTiles ? "an5d_boundary_inline" : "an5d_boundary",
                      PlaneIndex, Row, "");
}

std::string Emitter::boundaryCall(const std::string &Helper,
                                  const std::string &PlaneIndex,
                                  const std::string &Row,
                                  const std::string &Extra) const {
  std::string Cells, Exts;
  for (unsigned Dm = 0; Dm < N; ++Dm) {
    Cells += ", " + (Dm == 0 ? Row : cellIt(Dm));
    Exts += ", " + Ext[Dm];
  }
  return Helper + "(grid, " + PlaneIndex + ", plane" + Cells + Exts + Extra +
         ")";
}

bool Emitter::boundaryAhead(int64_t Level) const {
  return EdgeTiles && P.Prefetch > 0 && Level >= 1 &&
         !(Level >= 2 && P.boundaryFromRegisters());
}

std::string Emitter::boundaryAheadLoad(int64_t Level,
                                       const std::string &Row) const {
  return interiorTest(Row) + " ? " + zero() + " : " +
         boundaryValue(levelPlane(Level), Row);
}

void Emitter::boundaryAheadSetup(const KernelPlan &K) {
  bool Any = false;
  for (int64_t L = 1; L < K.Degree; ++L)
    Any |= boundaryAhead(L);
  if (!Any)
    return;
  W.line("// bnd_L_F: the boundary value level L's cell keeps in the row F "
         "rows after the one it");
  W.line("// computes now (0 inside the interior), loaded " +
         str(P.Prefetch) + " rows ahead so that the load's latency "
         "overlaps.");
  eachCell([&] {
    for (int64_t L = 1; L < K.Degree; ++L) {
      if (!boundaryAhead(L))
        continue;
      std::string Decl = Elem;
      std::vector<Operand> Loaded;
      for (int64_t F = 0; F < P.Prefetch; ++F) {
        Decl += std::string(F ? "," : "") + " " + bndName(L, F) + " = " +
                boundaryAheadLoad(L, plus(It[0], F - L * P.Hi[0]));
        Loaded.push_back(boundaryValueOf(bndName(L, F), L, F - L * P.Hi[0]));
      }
      codeOp(Decl + ";", std::move(Loaded));
    }
  });
}

void Emitter::boundaryAheadShift(int64_t Level) {
  int64_t Row = -Level * P.Hi[0];
  for (int64_t F = 0; F + 1 < P.Prefetch; ++F) {
    assign(KernelOpKind::Move, bndName(Level, F), bndName(Level, F + 1),
           boundaryValueOf(bndName(Level, F + 1), Level, Row + F + 1),
           boundaryValueOf(bndName(Level, F), Level, Row + F + 1));
  }
  std::string Ahead = plus(It[0], P.Prefetch - Level * P.Hi[0]);
  KernelOp &L = op(KernelOpKind::Load);
  L.Dst = bndName(Level, P.Prefetch - 1);
  L.Test = interiorTest(Ahead);
  L.Src = zero();
  L.Alt = boundaryValue(levelPlane(Level), Ahead);
  L.Writes = {boundaryValueOf(L.Dst, Level, Row + P.Prefetch)};
}


std::string Emitter::launchBounds(int64_t Degree) const {
  // The edge tiles' kernels are few blocks beside the interior kernel, and
  // their boundary tests need registers. Left to choose the occupancy
  // itself, ptxas spilled in them (box3d1r double, 256 threads: 8 bytes at
  // 80 registers; star2d2r float, 128 threads: 4 at 168), and a count that
  // fits the interior kernel's blocks capped them below their need; asked
  // for one block an SM, none of the 42 defaults' edge kernels spills.
  // The interior kernels below degree bT run one launch a run (the steps
  // left over) and spilled the same way (wave2d float's degree 9: 20
  // bytes at 96 registers).
  if (EdgeTiles || (Degree < P.BT && tailKernelsOneBlock()))
    return "__launch_bounds__(AN5D_THREADS, 1)";
  return P.MinBlocks ? "__launch_bounds__(AN5D_THREADS, AN5D_MIN_BLOCKS)"
                     : "__launch_bounds__(AN5D_THREADS)";
}

void Emitter::kernel(const KernelPlan &K) {
  for (bool Edge : {false, true}) {
    EdgeTiles = Edge;
    kernelOf(K);
  }
  EdgeTiles = false;
}

void Emitter::kernelOf(const KernelPlan &K) {
  int64_t D = K.Degree;
  W.line("// Degree " + str(D) + (EdgeTiles ? ", edge tiles" : "") +
         ": advances " + str(D) + " time step" + (D == 1 ? "" : "s") +
         " per launch, reading interior cells from plane in_plane");
  W.line("// of grid and writing level " + str(D) +
         " to the other plane; level L's boundary cells come from plane");
  W.line("// bnd_plane ^ (L % 2), the plane that step L of the launch reads "
         "in the C loop.");
  if (EdgeTiles) {
    W.line("// Launched over the other tiles, whose columns (halo included) "
           "leave the interior: every");
    W.line("// cell is tested, and boundary values are loaded inline (this "
           "kernel's registers do");
    W.line("// not limit the interior tiles' kernel).");
  } else {
    W.line("// Launched over the tiles whose columns (halo included) are "
           "interior, but for level 0");
    W.line("// of boundary columns within reach while in_plane is bnd_plane: "
           "no column tests; blocks");
    W.line("// whose streamed rows leave the interior test rows only (uniform "
           "per block).");
  }
  W.line("// block_y0" + std::string(N == 3 && !EdgeTiles ? ", block_z0" : "") +
         ": the launch part's first block along y" +
         (N == 3 && !EdgeTiles ? " and z" : "") + " (an5d_launch_parts).");
  if (Checked)
    W.line("// an5d_checked: see an5d_checked_launches; an5d_launch: this "
           "launch's index.");
  checkedTemplate();
  W.line("__global__ void " + launchBounds(D) + " " + kernelName(D, EdgeTiles) +
         "(" + Elem + " *grid, int in_plane, int bnd_plane, an5d_tiles tiles, "
         "int block_y0" + (N == 3 && !EdgeTiles ? ", int block_z0" : "") +
         gridParams() + scalarParams() + checkedKernelParams() + ")");
  W.open("");
  checkedKernelBegin();
  beginKernel(kernelName(D, EdgeTiles));
  // The set-up's read-ahead copies test what the first loop below does.
  Checks = EdgeTiles ? Tests::Cells : Tests::Rows;
  kernelSetup(K);
  if (EdgeTiles) {
    boundaryAheadSetup(K);
    streamLoop(K);
  } else {
    op(KernelOpKind::If).Test = blockRowsTest(K);
    Checks = Tests::None;
    streamLoop(K);
    end();
    op(KernelOpKind::Else);
    Checks = Tests::Rows;
    streamLoop(K);
    end();
  }
  endKernel();
  checkedKernelEnd();
  W.close();
  W.line("");
}

void Emitter::tileOfBlock() {
  if (!EdgeTiles) {
    W.line("// This block's tile: the host launches one block per interior "
           "tile.");
    for (unsigned Dm = 1; Dm < N; ++Dm)
      W.line("const int block_" + It[Dm] + " = tiles.lo_" + It[Dm] +
             (Dm + 1 == N ? " + (int)blockIdx.x;"
                          : " + block_y0 + (int)blockIdx.y;"));
    return;
  }
  const std::string &J = It[1];
  auto outside = [&](const std::string &Dim, const std::string &X) {
    return "(" + X + " < tiles.lo_" + Dim + " ? " + X + " : tiles.hi_" +
           Dim + " + (" + X + " - tiles.lo_" + Dim + "))";
  };
  W.line("// This block's tile: blockIdx.x counts the tiles outside the "
         "interior ranges lo .. hi - 1");
  if (N == 2) {
    W.line("// (tiles 0 .. lo - 1, then hi .. count - 1).");
    W.line("const int edge = (int)blockIdx.x;");
    W.line("const int block_" + J + " = " + outside(J, "edge") + ";");
    return;
  }
  const std::string &K = It[2];
  W.line("// of " + J + " and " + K + ": first the whole rows of tiles outside " +
         J + "'s range, then the tiles");
  W.line("// outside " + K + "'s range in the rows inside " + J + "'s.");
  W.line("const int edge = (int)blockIdx.x;");
  W.line("const int full_rows = (tiles.lo_" + J + " + tiles.count_" + J +
         " - tiles.hi_" + J + ") * tiles.count_" + K + ";");
  W.line("const int row_edges = tiles.lo_" + K + " + tiles.count_" + K +
         " - tiles.hi_" + K + ";");
  W.line("const int in_full = edge < full_rows;");
  W.line("const int rank = in_full ? edge : edge - full_rows;");
  W.line("const int row = rank / (in_full ? tiles.count_" + K +
         " : row_edges);");
  W.line("const int pos = rank - row * (in_full ? tiles.count_" + K +
         " : row_edges);");
  W.line("const int block_" + J + " = in_full ? " + outside(J, "row") +
         " : tiles.lo_" + J + " + row;");
  W.line("const int block_" + K + " = in_full ? pos : " + outside(K, "pos") +
         ";");
}

std::string Emitter::blockRowsTest(const KernelPlan &K) const {
  int64_t D = K.Degree;
  int64_t Below = D * P.Lo[0], Above = D * P.Hi[0] + P.Prefetch;
  if (threeLevels()) {
    // The older plane's row of loop row i: i + OlderAhead - hi (olderRing,
    // set by kernelSetup), for i from row_first - D lo to stream_last.
    int64_t Older = OlderAhead - P.Hi[0];
    Below = std::max(Below, D * P.Lo[0] - Older);
    Above = std::max(Above, D * P.Hi[0] + Older);
  }
  return plus("row_first", -Below) + " >= " + First[0] + " && " +
         plus("row_last", Above) + " <= " + Last[0];
}

std::string Emitter::blockColumnsTest(const KernelPlan &K) const {
  int64_t D = K.Degree;
  std::string T;
  for (unsigned Dm = 1; Dm < N; ++Dm) {
    std::string Lowest = plus("tile_" + It[Dm], -D * P.Lo[Dm]);
    T += std::string(T.empty() ? "" : " && ") + Lowest + " >= " + First[Dm] +
         " - " + ringColumns(Dm, true) + " && " +
         plus(Lowest, loadedColumns(Dm) - 1) + " <= " + Last[Dm] + " + " +
         ringColumns(Dm, false);
  }
  return T;
}

std::string Emitter::ringColumns(unsigned Dm, bool Lo) const {
  std::string Room = Lo ? First[Dm] : Ext[Dm] + " - 1 - " + Last[Dm];
  std::string Reach = str(Lo ? P.Lo[Dm] : P.Hi[Dm]);
  return "(in_plane == bnd_plane && " + Room + " > 0 ? (" + Room + " < " +
         Reach + " ? " + Room + " : " + Reach + ") : 0)";
}
