//===- Model.cpp - AN5D section 5's performance model ---------------------===//
#include "an5d/Model.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <set>

using namespace an5d;

// --- Operations of the update -----------------------------------------------

namespace {

const Expr &stripped(const Expr &E) {
  const Expr *X = &E;
  while ((X->K == Expr::Paren || X->K == Expr::Cast) && !X->Args.empty())
    X = &X->Args[0];
  return *X;
}

void addOps(OpMix &M, const OpMix &O) {
  M.FMA += O.FMA;
  M.MUL += O.MUL;
  M.ADD += O.ADD;
  M.DIV += O.DIV;
  M.DIVC += O.DIVC;
  M.RCP += O.RCP;
  M.SQRT += O.SQRT;
  M.OTHER += O.OTHER;
}

/// The operations of an expression's cell-dependent part, and whether it
/// reads a cell at all: parts that read no cell are loop-invariant and
/// hoisted by nvcc, so they cost nothing per cell.
struct CellOps {
  OpMix Ops;
  bool ReadsCell = false;
};

/// One bottom-up walk (linear in the tree: a sum of thousands of terms
/// asks each node once whether it reads a cell).
CellOps opsOf(const Expr &E) {
  CellOps R;
  R.ReadsCell = E.K == Expr::Read;
  bool ArgReads[2] = {false, false}; // of a binary node's operands
  for (size_t I = 0; I < E.Args.size(); ++I) {
    CellOps A = opsOf(E.Args[I]);
    if (I < 2)
      ArgReads[I] = A.ReadsCell;
    R.ReadsCell |= A.ReadsCell;
    addOps(R.Ops, A.Ops);
  }
  if (!R.ReadsCell)
    return R;
  OpMix &M = R.Ops;
  switch (E.K) {
  case Expr::Binary:
    if (E.Text == "+" || E.Text == "-") {
      // a * b + c is one FMA: the product's multiplication (counted in its
      // operand's mix) becomes the FMA.
      auto isProduct = [&](unsigned I) {
        const Expr &X = stripped(E.Args[I]);
        return X.K == Expr::Binary && X.Text == "*" && ArgReads[I];
      };
      if (isProduct(1) || isProduct(0)) {
        M.MUL -= 1;
        M.FMA += 1;
      } else {
        M.ADD += 1;
      }
    } else if (E.Text == "*") {
      M.MUL += 1;
    } else if (E.Text == "/") {
      if (constantDivisor(E))
        M.DIVC += 1;
      else if (refinedHelper(E))
        M.RCP += 1;
      else
        M.DIV += 1;
    } else {
      M.OTHER += 1;
    }
    break;
  case Expr::Call:
    if (E.Text == "sqrt" || E.Text == "sqrtf")
      M.SQRT += 1;
    else
      M.OTHER += 1;
    break;
  case Expr::Select:
    M.OTHER += 1;
    break;
  case Expr::Unary:
    if (E.Text == "!")
      M.OTHER += 1;
    break;
  default:
    break; // parentheses, casts, negation: folded into neighbours
  }
  return R;
}

} // namespace

OpMix an5d::countOps(const Expr &Update) { return opsOf(Update).Ops; }

double OpMix::instructions(ElemType Elem, bool FastMath) const {
  // IEEE division and sqrt without --use_fast_math: a reciprocal or square
  // root estimate refined by FMAs plus a range check (SASS of nvcc 13).
  bool F = Elem == ElemType::Float;
  // A division by a proved constant: FMUL, two FFMA, the range test and
  // its branch (the helper's SASS).
  double Div = F ? 16 : 24, Sqrt = F ? 8 : 16, DivConstant = 8;
  // A float reciprocal through its refined helper: MUFU.RCP, four FFMA and
  // the range test (sqrtf's helper costs about what Sqrt counts).
  double Reciprocal = 8;
  // Float under --use_fast_math: MUFU.RCP and a product, a product by the
  // constant's reciprocal, MUFU.RSQ and a product (gradient2d, j2d5pt SASS;
  // log-2026-11-25-fastdiv.md). Double keeps IEEE division and sqrt.
  if (F && FastMath) {
    Div = 2;
    DivConstant = 1;
    Sqrt = 2;
    Reciprocal = 2;
  }
  return double(FMA + MUL + ADD + OTHER) + Div * DIV + DivConstant * DIVC +
         Reciprocal * RCP + Sqrt * SQRT;
}

double OpMix::aluEfficiency() const {
  int64_t Ops = FMA + MUL + ADD + DIV + DIVC + RCP + SQRT + OTHER;
  return Ops ? double(flops()) / double(2 * Ops) : 1.0;
}

// --- Problem sizes ------------------------------------------------------------

ProblemSize an5d::paperSize(unsigned Dims) {
  ProblemSize P;
  P.Extent.assign(Dims, Dims == 2 ? 16384 : 512);
  return P;
}

bool an5d::parseProblemSize(llvm::StringRef Text, unsigned Dims,
                            ProblemSize &Out, std::string &Error) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.split(Parts, 'x');
  std::vector<int64_t> Ext;
  for (llvm::StringRef P : Parts) {
    int64_t V = 0;
    if (P.trim().getAsInteger(10, V) || V < 1 || V > (int64_t(1) << 31)) {
      Error = "--size '" + Text.str() +
              "' is not a grid size; write N (every dimension) or NxM" +
              (Dims == 3 ? "xL" : "") + ", outermost dimension first";
      return false;
    }
    Ext.push_back(V);
  }
  if (Ext.size() == 1)
    Ext.assign(Dims, Ext[0]);
  if (Ext.size() != Dims) {
    Error = "--size '" + Text.str() + "' gives " + std::to_string(Ext.size()) +
            " extents for a " + std::to_string(Dims) +
            "D stencil; write N or one extent per dimension";
    return false;
  }
  Out.Extent = Ext;
  return true;
}

// --- Registers ----------------------------------------------------------------

int64_t an5d::estimateRegisters(const Plan &P) {
  // Section 6.3 bounds the registers by bT * (2 rad + 1) + bT + 20 (float);
  // an5dc's kernels keep one ring of Ring rows per level, two registers per
  // double, plus the read-ahead rows and the row pointers. Fitted against
  // ptxas -v for the 21 benchmarks (docs/model.md).
  int64_t Words = P.Elem == ElemType::Double ? 2 : 1;
  double Ring = double(P.Ring) * Words;
  double Cells = double(P.Cells);
  // The vector-cell kernel's ring holds Lanes values per cell and row
  // (fitted to ptxas -v on the H200 --kvec sweeps, 58-128 registers: low by
  // up to 19 for the smallest rings, within 3 near the cap of 128).
  // Three time levels add the older plane's ring (Ring x Cells vectors)
  // and its addresses: 23-45 registers over the 14 unclamped files of the
  // H200 wave3d --kvec sweep of 2026-11-29, rms 6 with this term.
  // The wide double literals ptxas keeps in registers (Plan::
  // LiteralRegisters) come on top of either estimate.
  double Literals = double(P.LiteralRegisters);
  if (const VectorLayout *Vec = std::get_if<VectorLayout>(&P.Family))
    return int64_t(std::ceil(
        50.0 + 1.05 * double(P.BT) * Ring * Cells * double(Vec->Lanes) +
        (P.TimeLevels == 3 ? 18.0 + Ring * Cells * double(Vec->Lanes)
                           : 0.0) +
        Literals));
  double Est = 30.0 + 1.4 * double(P.BT) * Ring * Cells +
               double(P.Prefetch * Words) * Cells;
  // Three time levels: each level also holds the older values it reads and
  // the launch stores two levels (fitted to ptxas -v on the H200 wave2d and
  // wave3d sweeps of 2026-11-28: 15-95 registers above the two-level
  // estimate, rms 10 after this term).
  if (P.TimeLevels == 3)
    Est += 8.0 + 3.8 * double(P.BT * Words) * Cells;
  Est += Literals;
  // Not clamped to the device's 255: an estimate above it is a spill.
  return int64_t(std::ceil(Est));
}

// --- Counting a launch ---------------------------------------------------------

namespace {

int64_t overlap(int64_t A0, int64_t A1, int64_t B0, int64_t B1) {
  return std::max<int64_t>(0, std::min(A1, B1) - std::max(A0, B0) + 1);
}

/// Columns of one blocked dimension over all blocks of a launch.
struct ColumnCounts {
  int64_t Blocks = 0;
  int64_t InteriorBlocks = 0; // every column of the block in the interior
  double Threads = 0, InArray = 0, Interior = 0, Valid = 0;
  double Loaded = 0; // level-0 columns loaded inside the array
};

/// HaloDegrees: levels whose halo threads the block holds (Plan::
/// haloDegrees); Copied: level 0 also copies the halo beside the threads
/// (ScalarLayout::HaloRows, the vector-cell kernel). A degree's halo is
/// HaloLo and HaloHi columns (the reach lo and hi unless given: the
/// vector-cell kernel's whole vectors along k).
ColumnCounts countColumns(int64_t Extent, int64_t Lo, int64_t Hi, int64_t BS,
                          int64_t Tile, int64_t HaloDegrees, bool Copied,
                          int64_t HaloLo = -1, int64_t HaloHi = -1) {
  if (HaloLo < 0)
    HaloLo = Lo;
  if (HaloHi < 0)
    HaloHi = Hi;
  ColumnCounts C;
  int64_t First = Lo, Last = Extent - Hi - 1;
  if (Last < First)
    return C;
  C.Blocks = (Last - First + 1 + Tile - 1) / Tile;
  for (int64_t B = 0; B < C.Blocks; ++B) {
    int64_t Origin = First + B * Tile - HaloDegrees * HaloLo;
    int64_t End = Origin + BS - 1;
    int64_t LoadFirst = Copied ? Origin - HaloLo : Origin;
    int64_t LoadLast = Copied ? End + HaloHi : End;
    C.InteriorBlocks += LoadFirst >= First && LoadLast <= Last;
    C.Threads += double(BS);
    C.InArray += double(overlap(Origin, End, 0, Extent - 1));
    C.Loaded += double(overlap(LoadFirst, LoadLast, 0, Extent - 1));
    C.Interior += double(overlap(Origin, End, First, Last));
    C.Valid += double(overlap(First + B * Tile, First + B * Tile + Tile - 1,
                              First, Last));
  }
  return C;
}

/// Rows of the streaming dimension over all stream blocks of a launch.
struct RowCounts {
  int64_t Blocks = 0;
  int64_t InteriorBlocks = 0; // every streamed row in the interior
  double Streamed = 0;  // loop iterations (rows) of all stream blocks
  double Loaded = 0;    // level-0 rows inside the array
  double LoadedInterior = 0; // level-0 rows inside the interior
  double Computed = 0;  // rows computed at levels 1..D, inside the interior
  double Owned = 0;     // rows stored
};

RowCounts countRows(int64_t Extent, int64_t Lo, int64_t Hi, int64_t H,
                    int64_t Degree, int64_t Ahead) {
  RowCounts R;
  int64_t First = Lo, Last = Extent - Hi - 1;
  if (Last < First)
    return R;
  R.Blocks = (Last - First + 1 + H - 1) / H;
  for (int64_t S = 0; S < R.Blocks; ++S) {
    int64_t R0 = First + S * H, R1 = std::min(Last, R0 + H - 1);
    R.InteriorBlocks +=
        R0 - Degree * Lo >= First && R1 + Degree * Hi + Ahead <= Last;
    R.Streamed += double(R1 - R0 + 1 + Degree * (Lo + Hi));
    R.Loaded += double(overlap(R0 - Degree * Lo, R1 + Degree * Hi, 0,
                               Extent - 1));
    R.LoadedInterior += double(overlap(R0 - Degree * Lo, R1 + Degree * Hi,
                                       First, Last));
    for (int64_t L = 1; L <= Degree; ++L)
      R.Computed += double(overlap(R0 - (Degree - L) * Lo,
                                   R1 + (Degree - L) * Hi, First, Last));
    R.Owned += double(R1 - R0 + 1);
  }
  return R;
}

/// Shared-memory loads of one computed cell: the reads of other columns
/// that the kernel takes from shared memory. A thread's adjacent cells
/// (Plan::adjacentCells) load a position they share once and take another
/// of its cells from that cell's register.
double sharedLoadsPerCell(const StencilAnalysis &A, const Plan &P) {
  bool Assoc = P.Kernel == KernelKind::Assoc;
  int64_t Cells = P.adjacentCells() ? P.Cells : 1;
  // { row offset (0 for the associative kernel's one row), j, k } read
  // from shared memory by one thread, its cells at j = 0 .. Cells - 1.
  std::set<std::vector<int64_t>> Positions;
  for (const std::vector<int64_t> &O : A.Offsets) {
    bool OwnColumn = true;
    for (size_t D = 1; D < O.size(); ++D)
      OwnColumn = OwnColumn && O[D] == 0;
    if (OwnColumn)
      continue;
    for (int64_t C = 0; C < Cells; ++C) {
      std::vector<int64_t> At(O.begin(), O.end());
      if (Assoc)
        At[0] = 0;
      At[1] += C;
      bool OtherCell = At.size() == 3 && At[2] == 0 && At[1] >= 0 &&
                       At[1] < Cells;
      if (!OtherCell)
        Positions.insert(At);
    }
  }
  // The associative kernel reads each neighbour of the incoming row once
  // for all its pending sums.
  return double(Positions.size()) / double(Cells);
}

/// Shared-memory vector loads of one thread of the vector-cell kernel per
/// row and level: the distinct (row along j, vector along k) positions that
/// the in-plane reads (offset 0 along i) of its Cells rows x Lanes cells
/// touch, its own vector included. Reads along i come from registers.
double sharedVectorsPerThread(const StencilAnalysis &A, const Plan &P) {
  int64_t Lanes = P.vector().Lanes;
  auto floorDiv = [](int64_t X, int64_t Y) {
    return X >= 0 ? X / Y : -((-X + Y - 1) / Y);
  };
  std::set<std::pair<int64_t, int64_t>> Positions; // { j, vector along k }
  for (const std::vector<int64_t> &O : A.Offsets) {
    if (O.size() != 3 || O[0] != 0)
      continue;
    for (int64_t C = 0; C < P.Cells; ++C)
      for (int64_t L = 0; L < Lanes; ++L)
        Positions.insert({C + O[1], floorDiv(L + O[2], Lanes)});
  }
  return double(Positions.size());
}

/// predict() with the update's operations counted by the caller, once for
/// all the configurations it ranks (the count walks the whole update).
Prediction predictWith(const StencilAnalysis &A, const Plan &P,
                       const ProblemSize &Size, const DeviceSpec &D,
                       const OpMix &Ops) {
  assert(P.Run == Scheme::N5D && "the model describes the N.5D kernels");
  assert(Size.Extent.size() == P.Dims);
  assert(P.Gpu.Name == D.Name && "a plan is predicted on the GPU it fits");
  Prediction R;
  R.BT = P.BT;
  R.BS = P.BS;
  R.StreamBlock = P.StreamBlock;
  R.Cells = P.Cells;
  R.HaloRows = P.haloRows();
  R.Kernel = P.Kernel;
  const VectorLayout *Vec = std::get_if<VectorLayout>(&P.Family);
  R.VecK = Vec ? Vec->Lanes : 1;
  // 2D float kernels have their own overhead and edge figures (Device.cpp).
  const bool Float2D = P.Dims == 2 && P.Elem == ElemType::Float;
  // So have 3D float kernels of two time levels (fitted on those; with
  // them the wave's scalar kernel outranked its faster vector-cell one).
  const bool Float3D2L =
      P.Dims == 3 && P.Elem == ElemType::Float && P.TimeLevels == 2;
  const KernelPlan &K = P.Kernels.back();
  const int64_t Deg = K.Degree;
  const double Word = elemTypeBytes(P.Elem);

  RowCounts Rows = countRows(Size.Extent[0], P.Lo[0], P.Hi[0], P.StreamBlock,
                             Deg, P.Prefetch);
  double Threads = 1, InArray = 1, Interior = 1, Valid = 1, LoadedCols = 1;
  int64_t Blocks = Rows.Blocks, InteriorBlocks = Rows.InteriorBlocks;
  for (unsigned Dm = 1; Dm < P.Dims; ++Dm) {
    // The vector-cell kernel's threads compute level 1 wherever it is
    // valid over a copied halo: rows along j, whole vectors along k.
    ColumnCounts C =
        !Vec ? countColumns(Size.Extent[Dm], P.Lo[Dm], P.Hi[Dm],
                            P.span(Dm - 1), K.Tile[Dm - 1],
                            P.haloDegrees(Dm - 1, Deg), P.haloRows() && Dm == 1)
        : Dm == 1
            ? countColumns(Size.Extent[Dm], P.Lo[Dm], P.Hi[Dm], P.span(0),
                           K.Tile[0], Deg - 1, true)
            : countColumns(Size.Extent[Dm], P.Lo[Dm], P.Hi[Dm],
                           P.BS[1] * Vec->Lanes, K.Tile[1], Deg - 1, true,
                           Vec->HaloLo * Vec->Lanes, Vec->HaloHi * Vec->Lanes);
    Threads *= C.Threads;
    InArray *= C.InArray;
    LoadedCols *= C.Loaded;
    Interior *= C.Interior;
    Valid *= C.Valid;
    Blocks *= C.Blocks;
    InteriorBlocks *= C.InteriorBlocks;
  }
  R.Blocks = Blocks;

  double Computed = Interior * Rows.Computed;
  double Owned = Valid * Rows.Owned;
  R.Threads.OutOfBound = (Threads - InArray) * Rows.Streamed;
  R.Threads.Boundary = InArray * Rows.Loaded - Interior * Rows.LoadedInterior;
  R.Threads.Valid = Owned * double(Deg);
  R.Threads.Redundant = std::max(0.0, Computed - R.Threads.Valid);

  // Global memory: level 0 loads every in-array cell of the streamed rows,
  // the last level stores the block's tile.
  double Loads = LoadedCols * Rows.Loaded, Stores = Owned;
  // Three time levels: level 1 also loads the older plane where it
  // computes, and the launch stores its last two levels.
  if (P.TimeLevels == 3) {
    Loads += Computed / double(Deg);
    if (Deg > 1)
      Stores *= 2;
  }
  R.GlobalBytes = (Loads + Stores) * Word;
  // Coefficient arrays of the grid's dimensions: each element crosses from
  // memory once per launch (its other levels' and neighbours' reads hit
  // the caches); arrays of fewer dimensions stay in the caches.
  R.GlobalBytes += Owned * double(A.CoefGridBytes);
  // Each coefficient read: a load and its index arithmetic.
  const double CoefInstr = 3.0 * A.CoefReadsPerCell;

  double FpPerCell = Ops.instructions(P.Elem, P.FastMath);
  R.FlopSlots = Computed * FpPerCell;
  if (Vec) {
    // Level 0 arrives by vector copies into shared planes (no store
    // instruction); levels 1 .. D - 1 store their rows' vectors for the
    // next level; each level loads whole vectors: a vector per position
    // its cells' in-plane reads touch (sharedVectorsPerThread).
    double Lanes = double(Vec->Lanes);
    double SharedStores = Threads * Rows.Streamed * double(Deg - 1);
    double VectorLoads =
        Computed / (double(P.Cells) * Lanes) * sharedVectorsPerThread(A, P);
    R.SharedBytes = (SharedStores + VectorLoads * Lanes) * Word;
    R.Instructions = Computed * (FpPerCell + D.VectorOverheadInstr +
                                 double(P.LiteralMoves)) +
                     VectorLoads + (SharedStores + Loads + Stores) / Lanes;
  } else {
    // Shared memory: every thread stores one value per cell, row and level
    // that feeds the next level; computed cells load their other columns.
    // One barrier per thread, row and level serves all of a thread's cells.
    bool UsesShared = !P.scalar().SharedRows.empty();
    double SharedStores =
        UsesShared ? Threads * Rows.Streamed * double(Deg) +
                         (LoadedCols - InArray) * Rows.Loaded
                   : 0.0;
    double SharedLoads = Computed * sharedLoadsPerCell(A, P);
    R.SharedBytes = (SharedStores + SharedLoads) * Word;
    double Overhead =
        Float2D     ? D.OverheadInstr2DFloat
        : Float3D2L ? D.OverheadInstr3DFloat +
                          D.RowOverheadInstr3DFloat / double(P.Cells)
                    : D.OverheadInstr;
    R.Instructions = Computed * (FpPerCell + Overhead + CoefInstr +
                                 double(P.LiteralMoves)) +
                     SharedLoads +
                     SharedStores * (1.0 + 1.0 / double(P.Cells)) + Loads +
                     Stores;
  }

  double Clock = D.ClockMHz * 1e6;
  double Peak = (P.Elem == ElemType::Float ? D.Fp32GFlops : D.Fp64GFlops) *
                1e9;
  R.TimeCompute = 2.0 * R.FlopSlots / Peak;
  R.TimeIssue = R.Instructions / (double(D.SMs) * 128.0 * Clock);
  R.TimeShared = R.SharedBytes / (D.SharedGBs * 1e9);
  R.TimeGlobal = R.GlobalBytes / (D.GlobalGBs * 1e9);

  // Blocks per SM under the thread, block, register and shared limits.
  R.Registers = estimateRegisters(P);
  R.RegisterCap = registerBudget(P);
  R.Spills = R.Registers > R.RegisterCap;
  int64_t Regs = std::min(R.Registers, R.RegisterCap);
  int64_t RegsPerWarp =
      (Regs + D.RegisterUnit - 1) / D.RegisterUnit * D.RegisterUnit * 32;
  int64_t Warps = (P.Threads + 31) / 32;
  int64_t PerSM = std::min(D.ThreadsPerSM / P.Threads, D.MaxBlocksPerSM);
  PerSM = std::min(PerSM, D.RegistersPerSM / (RegsPerWarp * Warps));
  if (P.SharedBytes > 0)
    PerSM = std::min(PerSM, D.SharedPerSM / (P.SharedBytes + 1024));
  R.BlocksPerSM = std::max<int64_t>(PerSM, 0);

  double Resident = double(D.SMs * std::max<int64_t>(1, R.BlocksPerSM));
  double Waves = std::ceil(double(Blocks) / Resident);
  R.WaveEfficiency = Blocks ? double(Blocks) / (Waves * Resident) : 0.0;
  // A block spends Issue cycles per row and level issuing its warps'
  // instructions, and waits LatencyCycles per warp at the barrier (the
  // slowest warp sets the pace); other resident blocks fill the wait
  // (section 5's SM efficiency, refined for latency).
  double RowLevels = Blocks ? Rows.Streamed / double(Rows.Blocks) * Deg : 1;
  double PerThreadRowLevel =
      Blocks ? R.Instructions / (double(Blocks) * P.Threads * RowLevels) : 0;
  double Issue = double(Warps) * PerThreadRowLevel / 4.0;
  // Blocks that actually share an SM: the limit, or fewer on a small grid.
  double Sharing = std::min(double(std::max<int64_t>(1, R.BlocksPerSM)),
                            std::max(1.0, double(Blocks) / double(D.SMs)));
  // The vector-cell kernel's threads each hold Lanes x Cells independent
  // cells per row: their own instructions fill the barrier's wait.
  R.LatencyEfficiency =
      Vec ? 1.0
          : std::min(1.0, Sharing * Issue /
                              (Issue + D.LatencyCycles * double(Warps)));

  // The unrolled streaming loop repeats the update Degree x Unroll x Cells
  // times at 16 bytes an instruction, plus 8 KiB. In 2D float SASS has
  // about 1.6x the instructions counted (the division and sqrt slow paths
  // are inline); elsewhere the count matches it within 25% (box3d1r-3r,
  // box2d4r: log-2026-11-30-fetch.md). A loop that outgrows the instruction
  // cache runs slower (gradient2d float: 93 KB 0.9x, 126 KB 0.7x the 43 KB
  // loop; log-2026-11-29-model-2d.md).
  double Code = 0;
  if (!Vec && Computed > 0) {
    double PerUpdate =
        (Float2D ? 1.6 : 1.0) * 16.0 * R.Instructions / Computed;
    Code = 8192.0 + PerUpdate * double(Deg * K.Unroll * P.Cells);
  }
  R.CodeBytes = Code;
  // Past the cached code each block fetches the missed part of its loop at
  // every pass, once for its warps: bytes per warp instruction = 16 x the
  // missed fraction / warps per block. Fitted on the associative kernels,
  // whose long updates make the long loops (2D float has its own slowdown;
  // on the stars the count of instructions is less exact).
  if (P.Kernel == KernelKind::Assoc && !Float2D && D.FetchBytesPerCycle > 0 &&
      Code > D.CachedCodeBytes) {
    double Missed = 1.0 - D.CachedCodeBytes / Code;
    double Fetched = R.Instructions / 32.0 * 16.0 * Missed / double(Warps);
    R.TimeFetch = Fetched / (double(D.SMs) * D.FetchBytesPerCycle * Clock);
  }

  struct {
    const char *Name;
    double Time;
  } Bounds[] = {{"compute", R.TimeCompute},
                {"issue", R.TimeIssue},
                {"shared memory", R.TimeShared},
                {"global memory", R.TimeGlobal},
                {"instruction fetch", R.TimeFetch}};
  double Worst = 0;
  for (const auto &B : Bounds)
    if (B.Time > Worst) {
      Worst = B.Time;
      R.Limit = B.Name;
    }
  // 2D float: part of the global-memory time adds to the issue or shared
  // time; without it the model put low degrees first (a bT 6 sweep of the
  // division stencils, log-2026-11-29-model-2d.md).
  if (!Vec && Float2D && D.GlobalExposed2DFloat > 0) {
    double Chip = std::max(R.TimeIssue, R.TimeShared);
    double Both = Chip + D.GlobalExposed2DFloat * R.TimeGlobal;
    if (Both > Worst) {
      Worst = Both;
      R.Limit = (R.TimeIssue > R.TimeShared ? "issue" : "shared memory") +
                std::string(" and global memory");
    }
  }
  // At bT > 1 the vector-cell kernel passes each level's rows to the next
  // through shared planes between barriers: that traffic does not overlap
  // the copies of level 0 (fitted to the H200 --kvec sweeps at bT 2).
  if (Vec && Deg > 1 && R.TimeGlobal + R.TimeShared > Worst) {
    Worst = R.TimeGlobal + R.TimeShared;
    R.Limit = "global and shared memory";
  }
  double Eff = R.WaveEfficiency * R.LatencyEfficiency;
  if (Eff < 1.0 && R.LatencyEfficiency < R.WaveEfficiency)
    R.Limit += " (latency: " + std::to_string(R.BlocksPerSM) +
               " blocks per SM)";
  // Blocks touching the boundary run the copy of the streaming loop with
  // per-row or per-cell tests.
  R.EdgeFraction = Blocks ? 1.0 - double(InteriorBlocks) / double(Blocks) : 0;
  // The 3D float figure was fitted on associative kernels (box, j3d27pt);
  // with it the star kernel outranked star3d2r's faster vector cells.
  double Slowdown = Float2D ? D.EdgeSlowdown2DFloat
                    : Float3D2L && P.Kernel == KernelKind::Assoc
                        ? D.EdgeSlowdown3DFloat
                        : D.EdgeSlowdown;
  // In double the edge copy's tests weigh less the longer the update they
  // guard: the slowdown beyond 1 scales by the overhead's share of a
  // cell's instructions (the figure was fitted on float; with it box2d4r
  // double put 128 threads first, 0.75x the 512 it then picks). Not for the
  // 3D stars, whose vector-cell kernel was ranked against the full figure:
  // with it star3d2r's bT 2 scalar kernel came first, measured 0.74x
  // (log-2026-11-30-fetch.md).
  if (P.Elem == ElemType::Double && Computed > 0 &&
      (P.Dims != 3 || P.Kernel == KernelKind::Assoc)) {
    double PerCell = R.Instructions / Computed;
    Slowdown = 1.0 + (Slowdown - 1.0) * std::min(1.0, D.OverheadInstr / PerCell);
  }
  // The vector-cell kernel has one streaming loop for every block (its
  // tests are per thread), no slower copy for the edges.
  double Edge = Vec ? 1.0 : 1.0 + R.EdgeFraction * (Slowdown - 1.0);
  const double LaunchSeconds = 3e-6;
  double Fetch = 1.0;
  if (Float2D && D.CodeBudget2DFloat > 0 && Code > D.CodeBudget2DFloat)
    Fetch += D.CodeSlowdown2DFloat * (Code / D.CodeBudget2DFloat - 1.0);
  if (Fetch > 1.0)
    R.Limit += " (code size)";
  double Launch =
      (Eff > 0 ? Worst * Edge * Fetch / Eff : 1e30) + LaunchSeconds;
  R.SecondsPerStep = Launch / double(Deg);
  double Cells = 1;
  for (unsigned Dm = 0; Dm < P.Dims; ++Dm)
    Cells *= double(std::max<int64_t>(0, Size.Extent[Dm] - P.Lo[Dm] -
                                             P.Hi[Dm]));
  R.GFlops = double(Ops.flops()) * Cells / R.SecondsPerStep / 1e9;
  return R;
}

} // namespace

Prediction an5d::predict(const Stencil &S, const StencilAnalysis &A,
                         const Plan &P, const ProblemSize &Size,
                         const DeviceSpec &D) {
  return predictWith(A, P, Size, D, countOps(S.Update));
}

// --- Search ---------------------------------------------------------------------

PlanOptions an5d::optionsOf(const Prediction &P, const PlanOptions &Base) {
  PlanOptions O = Base;
  O.BT = P.BT;
  O.BS.assign(P.BS.rbegin(), P.BS.rend());
  O.StreamBlock = P.StreamBlock;
  O.Cells = P.Cells;
  O.HaloRows = P.HaloRows;
  O.VecK = P.VecK;
  return O;
}

std::vector<Prediction> an5d::rankConfigurations(
    const Stencil &S, const StencilAnalysis &A, const PlanOptions &Base,
    const SearchConstraints &C, const ProblemSize &Size, const DeviceSpec &D) {
  assert(Base.Gpu.Name == D.Name && "the search plans for the GPU it predicts");
  unsigned Dims = S.numSpaceDims();
  std::vector<std::vector<int64_t>> Blocks =
      Dims == 2 ? std::vector<std::vector<int64_t>>{{128}, {256}, {512}}
                : std::vector<std::vector<int64_t>>{
                      {16, 16}, {32, 8}, {32, 16}, {32, 32}, {64, 8}, {64, 16}};
  if (C.BS)
    Blocks = {*C.BS};
  std::vector<int64_t> Degrees;
  for (int64_t T = 1; T <= (Dims == 2 ? 16 : 8); ++T)
    Degrees.push_back(T);
  if (C.BT)
    Degrees = {*C.BT};
  std::vector<int64_t> Streams = Dims == 2
                                     ? std::vector<int64_t>{128, 256, 512}
                                     : std::vector<int64_t>{32, 64, 128, 256};
  // Three time levels in 3D: the edge and halo-row terms, fitted on two
  // levels, misjudge the kernel. On an H200 (wave3d, 512^3) hSN 32 ran
  // slower than 128 in 29 of 34 pairs and halo rows slower than none in 26
  // of 32 (benchmarks/results/log-2026-11-28-wave3d-model.md), so neither
  // is searched there.
  const bool ThreeLevels3D = Dims == 3 && A.TimeLevels == 3;
  if (ThreeLevels3D)
    Streams = {128, 256};
  if (C.StreamBlock)
    Streams = {*C.StreamBlock};
  // Cells per thread and halo rows trade registers for fewer halo threads
  // and shared-memory reads; 2D cells lie a block apart, so two suffice.
  std::vector<int64_t> CellCounts =
      Dims == 2 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{1, 2, 4};
  if (C.Cells)
    CellCounts = {*C.Cells};
  std::vector<bool> HaloChoices = Dims == 3 && !ThreeLevels3D
                                      ? std::vector<bool>{false, true}
                                      : std::vector<bool>{false};
  if (C.HaloRows)
    HaloChoices = {*C.HaloRows};

  OpMix Ops = countOps(S.Update);
  std::vector<Prediction> Out;
  // Base with one configuration's parameters, ranked when it plans.
  auto Add = [&](int64_t T, const std::vector<int64_t> &BS, int64_t H,
                 int64_t Cells, bool Halo, int64_t VecK) {
    PlanOptions O = Base;
    O.BT = T;
    O.BS = BS;
    O.StreamBlock = H;
    O.Cells = Cells;
    O.HaloRows = Halo;
    O.VecK = VecK;
    Plan P;
    if (!makePlan(S, A, O, P))
      Out.push_back(predictWith(A, P, Size, D, Ops));
  };
  // 3D blocks whose rows are narrower than a 128-byte line (16 floats):
  // half-warp rows measured 0.60-0.82 of the predictions at 512^3 and were
  // never the best (float, h200-2026-11-29-model-3d-sweep-*.csv).
  if (Dims == 3 && !C.BS)
    llvm::erase_if(Blocks, [&](const std::vector<int64_t> &BS) {
      return BS[0] * int64_t(elemTypeBytes(S.Elem)) < 128;
    });
  if (C.VecK.value_or(1) == 1)
    for (const std::vector<int64_t> &BS : Blocks)
      for (int64_t Cells : CellCounts)
        for (bool Halo : HaloChoices)
          for (int64_t T : Degrees)
            for (int64_t H : Streams)
              Add(T, BS, H, Cells, Halo, 1);
  // The vector-cell kernel (3D stars): 16-byte vectors unless --kvec says
  // otherwise; it copies the halo rows itself, so never with --halo-rows.
  int64_t Lanes = C.VecK.value_or(MaxVectorBytes / elemTypeBytes(S.Elem));
  bool Vectors = Dims == 3 && Lanes > 1 && !C.HaloRows.value_or(false) &&
                 (Base.Kernel == KernelKind::Auto ||
                  Base.Kernel == KernelKind::Star) &&
                 !vectorRefusal(S, A, Lanes);
  if (Vectors) {
    std::vector<std::vector<int64_t>> VecBlocks = {
        {32, 4}, {32, 8}, {32, 16}, {64, 4}, {64, 8}};
    if (C.BS)
      VecBlocks = {*C.BS};
    std::vector<int64_t> VecDegrees = {1, 2, 3};
    // Three time levels: on an H200 (wave3d, 512^3) bT 1 ran faster than
    // every file of bT 2-4 in float (best 82.6 ms against 93.2) and level
    // with them in double (158.7 against 161.2 ms), which the launch
    // counts, fitted on two levels, do not see
    // (benchmarks/results/log-2026-11-29-wave3d-vector.md).
    if (A.TimeLevels == 3)
      VecDegrees = {1};
    if (C.BT)
      VecDegrees = {*C.BT};
    // hSN 128 measured up to 15% slower than 64 (h200-kvec-sweep-1.csv),
    // which the model's halo count does not see.
    std::vector<int64_t> VecStreams = {32, 64};
    if (C.StreamBlock)
      VecStreams = {*C.StreamBlock};
    std::vector<int64_t> VecCells = {1, 2, 3, 4};
    if (C.Cells)
      VecCells = {*C.Cells};
    for (const std::vector<int64_t> &BS : VecBlocks)
      for (int64_t Cells : VecCells)
        for (int64_t T : VecDegrees)
          for (int64_t H : VecStreams)
            Add(T, BS, H, Cells, false, Lanes);
  }
  auto Key = [](const Prediction &P) {
    return std::make_tuple(P.Spills, P.SecondsPerStep, P.BT, P.BS,
                           P.StreamBlock, P.Cells, P.HaloRows, P.VecK);
  };
  std::sort(Out.begin(), Out.end(),
            [&](const Prediction &X, const Prediction &Y) {
              return Key(X) < Key(Y);
            });
  return Out;
}

// --- Printing ---------------------------------------------------------------------

std::string an5d::sizeText(const ProblemSize &Size) {
  std::string S;
  for (int64_t E : Size.Extent)
    S += (S.empty() ? "" : "x") + std::to_string(E);
  return S;
}

std::string an5d::configLabel(const Prediction &P) {
  return parametersLabel(P.BT, P.BS, P.StreamBlock, P.Cells, P.HaloRows,
                         P.VecK);
}

void Prediction::dump(llvm::raw_ostream &OS) const {
  OS << "prediction: " << configLabel(*this) << ", kernel "
     << kernelKindName(Kernel) << "\n";
  OS << llvm::format("  threads (thread-rows): out-of-bound %.0f, boundary "
                     "%.0f, redundant %.0f, valid %.0f\n",
                     Threads.OutOfBound, Threads.Boundary, Threads.Redundant,
                     Threads.Valid);
  OS << llvm::format("  per launch: %lld blocks, global %.0f bytes, shared "
                     "%.0f bytes, %.0f instructions, %.0f FP slots\n",
                     (long long)Blocks, GlobalBytes, SharedBytes,
                     Instructions, FlopSlots);
  OS << llvm::format("  times (us): compute %.3f, issue %.3f, shared %.3f, "
                     "global %.3f\n",
                     TimeCompute * 1e6, TimeIssue * 1e6, TimeShared * 1e6,
                     TimeGlobal * 1e6);
  OS << llvm::format("  registers %lld (cap %lld%s), %lld blocks per SM, "
                     "wave efficiency %.3f, latency efficiency %.3f, "
                     "edge blocks %.3f\n",
                     (long long)Registers, (long long)RegisterCap,
                     Spills ? ", spills" : "", (long long)BlocksPerSM,
                     WaveEfficiency, LatencyEfficiency, EdgeFraction);
  if (CodeBytes > 0) {
    OS << llvm::format("  streaming loop of the deepest kernel: about %.0f "
                       "KiB of code",
                       CodeBytes / 1024.0);
    if (TimeFetch > 0)
      OS << llvm::format(", fetched past the cache in %.3f us",
                         TimeFetch * 1e6);
    OS << "\n";
  }
  OS << llvm::format("  limit: %s; %.4f ms per step, %.1f GFLOP/s\n",
                     Limit.c_str(), SecondsPerStep * 1e3, GFlops);
}

void an5d::printRanking(llvm::raw_ostream &OS, const Stencil &S,
                        const StencilAnalysis &A,
                        const std::vector<Prediction> &R,
                        const ProblemSize &Size, const DeviceSpec &D,
                        size_t Top) {
  OpMix Ops = countOps(S.Update);
  OS << "an5dc model: " << S.Function << " (" << S.numSpaceDims() << "D "
     << elemTypeName(S.Elem) << ", " << shapeName(A.StencilShape)
     << ", radius " << A.Radius << ") on " << D.Name << " (" << D.FullName
     << ")\n";
  OS << "  grid " << sizeText(Size) << ", " << Ops.flops()
     << " FLOP per cell (FMA " << Ops.FMA << ", MUL " << Ops.MUL << ", ADD "
     << Ops.ADD << ", DIV " << Ops.DIV << ", DIV by a constant "
     << Ops.DIVC << (Ops.RCP ? ", reciprocal " + std::to_string(Ops.RCP) : "")
     << ", SQRT " << Ops.SQRT << ", other "
     << Ops.OTHER << "), ALU efficiency "
     << llvm::format("%.2f", Ops.aluEfficiency()) << "\n";
  size_t Spilling = 0;
  for (const Prediction &P : R)
    Spilling += P.Spills;
  OS << "  " << R.size() << " configurations planned, " << Spilling
     << " predicted to spill registers (ranked last)\n";
  OS << "rank   bT       bS   hSN cells halo vec    GFLOP/s    ms/step  regs   "
        "cap blk/SM  occ.  limit\n";
  for (size_t I = 0; I < R.size() && I < Top; ++I) {
    const Prediction &P = R[I];
    int64_t Threads = 1;
    for (int64_t B : P.BS)
      Threads *= B;
    double Occupancy = double(P.BlocksPerSM * Threads) / double(D.ThreadsPerSM);
    OS << llvm::format("%4zu %4lld %8s %5lld %5lld %4s %3s %10.1f %10.4f "
                       "%5lld %5lld %6lld %4.0f%%  %s%s\n",
                       I + 1, (long long)P.BT, userBlockSizes(P.BS).c_str(),
                       (long long)P.StreamBlock, (long long)P.Cells,
                       P.HaloRows ? "rows" : "-",
                       P.VecK > 1 ? std::to_string(P.VecK).c_str() : "-",
                       P.GFlops,
                       P.SecondsPerStep * 1e3, (long long)P.Registers,
                       (long long)P.RegisterCap, (long long)P.BlocksPerSM,
                       100.0 * Occupancy, P.Limit.c_str(),
                       P.Spills ? ", spills" : "");
  }
}
