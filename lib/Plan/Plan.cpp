//===- Plan.cpp - Blocking parameters and kernel shapes ------------------===//
#include "an5d/Plan.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <set>
#include <sstream>

using namespace an5d;

int64_t Plan::sharedRowOf(int64_t Off) const {
  const std::vector<int64_t> &SharedRows = scalar().SharedRows;
  for (size_t I = 0; I < SharedRows.size(); ++I)
    if (SharedRows[I] == Off)
      return int64_t(I);
  return -1;
}

static std::string joinX(const std::vector<int64_t> &V) {
  std::string S;
  for (size_t I = 0; I < V.size(); ++I)
    S += (I ? "x" : "") + std::to_string(V[I]);
  return S;
}

std::string an5d::userBlockSizes(const std::vector<int64_t> &BS,
                                 const char *Sep) {
  std::string S;
  for (auto I = BS.rbegin(); I != BS.rend(); ++I)
    S += (S.empty() ? "" : Sep) + std::to_string(*I);
  return S;
}

std::string an5d::parametersLabel(int64_t BT, const std::vector<int64_t> &BS,
                                  int64_t StreamBlock, int64_t Cells,
                                  bool HaloRows, int64_t VecK) {
  return "bT " + std::to_string(BT) + ", bS " + userBlockSizes(BS) +
         ", hSN " + std::to_string(StreamBlock) +
         (Cells > 1 ? ", cells " + std::to_string(Cells) : "") +
         (HaloRows ? ", halo rows" : "") +
         (VecK > 1 ? ", vector " + std::to_string(VecK) : "");
}

const char *an5d::schemeName(Scheme S) {
  return S == Scheme::Naive ? "naive" : "n5d";
}

const char *an5d::kernelKindName(KernelKind K) {
  switch (K) {
  case KernelKind::Auto: return "auto";
  case KernelKind::None: return "none";
  case KernelKind::Star: return "star";
  case KernelKind::Assoc: return "assoc";
  }
  return "?";
}

std::vector<int64_t> an5d::naiveBlock(unsigned Dims) {
  // Array order; 32 threads along the contiguous dimension for coalescing.
  return Dims == 2 ? std::vector<int64_t>{8, 32}
                   : std::vector<int64_t>{1, 8, 32};
}

KernelKind an5d::autoKernel(const StencilAnalysis &A) {
  if (A.DiagonalFree)
    return KernelKind::Star;
  // Only where its partial sums add as C does (--opt=assoc may reorder).
  if (A.Associative && !A.Associative->OutOfOrder)
    return KernelKind::Assoc;
  return KernelKind::None;
}

static std::string offsetText(const std::vector<int64_t> &O) {
  std::string T = "[";
  for (size_t I = 0; I < O.size(); ++I)
    T += (I ? ", " : "") + std::to_string(O[I]);
  return T + "]";
}

/// "; use --opt=X (what --opt=auto picks) or --opt=Y": the kinds that
/// apply, other than Refused.
static std::string alternatives(const StencilAnalysis &A, KernelKind Refused) {
  KernelKind Auto = autoKernel(A);
  std::string Out;
  for (KernelKind K : {KernelKind::Star, KernelKind::Assoc, KernelKind::None}) {
    bool Applies = K == KernelKind::None ||
                   (K == KernelKind::Star && A.DiagonalFree) ||
                   (K == KernelKind::Assoc && A.Associative);
    if (K == Refused || !Applies)
      continue;
    Out += std::string(Out.empty() ? "; use --opt=" : " or --opt=") +
           kernelKindName(K) + (K == Auto ? " (what --opt=auto picks)" : "");
  }
  return Out;
}

/// The first read at another row and another column (a diagonal access
/// across the streaming dimension), or -1 when there is none.
static int64_t diagonalRead(const StencilAnalysis &A) {
  for (size_t R = 0; R < A.ReadOffsets.size(); ++R) {
    const std::vector<int64_t> &O = A.ReadOffsets[R];
    bool Other = false;
    for (size_t D = 1; D < O.size(); ++D)
      Other = Other || O[D] != 0;
    if (O[0] != 0 && Other)
      return int64_t(R);
  }
  return -1;
}

static const char *const DiagonalFreeText =
    "a diagonal-access-free stencil (rows above and below the cell read "
    "only in its own column), but this read is at offset ";

std::optional<PlanError> an5d::kernelRefusal(const Stencil &S,
                                             const StencilAnalysis &A,
                                             KernelKind Kind) {
  int64_t Diagonal = diagonalRead(A);
  if (Kind == KernelKind::Star && !A.DiagonalFree && Diagonal >= 0)
    return PlanError{PlanError::Kind::KernelRefused, "--opt",
                     std::string("--opt=star needs ") + DiagonalFreeText +
                         offsetText(A.ReadOffsets[Diagonal]) +
                         alternatives(A, Kind),
                     S.Reads[Diagonal].Range};
  if (Kind == KernelKind::Assoc && A.TimeLevels == 3)
    return PlanError{PlanError::Kind::KernelRefused, "--opt",
                     "--opt=assoc does not apply to three time levels (its "
                     "partial sums take the previous level's rows only)" +
                         alternatives(A, Kind),
                     S.Write.Range};
  if (Kind == KernelKind::Assoc && (!S.CoefReads.empty() || S.ReadsTime))
    return PlanError{PlanError::Kind::KernelRefused, "--opt",
                     "--opt=assoc does not apply to an update that reads a "
                     "coefficient array or the time step (a term's factor "
                     "depends on the cell or the step)" +
                         alternatives(A, Kind),
                     S.CoefReads.empty() ? S.Update.Range
                                         : S.CoefReads[0].Range};
  if (Kind == KernelKind::Assoc && !A.Associative) {
    std::vector<int64_t> Plane;
    for (const std::vector<int64_t> &O : A.ReadOffsets)
      Plane.push_back(O[0]);
    const Expr *Bad = nullptr;
    associativeForm(S.Update, Plane, &Bad, A.FastMath);
    // Whether reassociating would make the update associative: say so.
    bool FastMathHelps =
        !A.FastMath && associativeForm(S.Update, Plane, nullptr, true);
    return PlanError{
        PlanError::Kind::KernelRefused, "--opt",
        "--opt=assoc needs an update that is a sum of terms each reading "
        "one row of the streaming dimension (optionally scaled by a "
        "factor that reads no cell), but this term reads several rows" +
            std::string(FastMathHelps
                            ? " (--fast-math would distribute its factor "
                              "over the sum, reassociating it)"
                            : "") +
            alternatives(A, Kind),
        Bad ? Bad->Range : S.Update.Range};
  }
  return std::nullopt;
}

std::optional<PlanError>
an5d::vectorRefusal(const Stencil &S, const StencilAnalysis &A, int64_t VecK) {
  if (VecK > 1 && (!S.CoefReads.empty() || S.ReadsTime))
    return PlanError{PlanError::Kind::KernelRefused, "--kvec",
                     "--kvec " + std::to_string(VecK) +
                         " does not apply to an update that reads a "
                         "coefficient array or the time step; drop --kvec",
                     S.CoefReads.empty() ? S.Update.Range
                                         : S.CoefReads[0].Range};
  int64_t Diagonal = diagonalRead(A);
  if (VecK <= 1 || S.numSpaceDims() != 3 || Diagonal < 0)
    return std::nullopt;
  return PlanError{PlanError::Kind::KernelRefused, "--kvec",
                   "--kvec " + std::to_string(VecK) + " needs " +
                       DiagonalFreeText + offsetText(A.ReadOffsets[Diagonal]) +
                       "; drop --kvec",
                   S.Reads[Diagonal].Range};
}

using Kind = PlanError::Kind;

/// The error of Option (What, the sentence the driver prints).
static PlanError fail(Kind What, const char *Option, std::string Message) {
  return PlanError{What, Option, std::move(Message), {}};
}

/// Sets P.MinBlocks; false with Error when that many blocks of P.Threads
/// threads would not fit on an SM (Fix: what to make smaller).
static bool setMinBlocks(const PlanOptions &Opts, const std::string &Fix,
                         Plan &P, PlanError &Error) {
  P.MinBlocks = Opts.MinBlocks.value_or(0);
  if (P.MinBlocks * P.Threads <= P.Gpu.ThreadsPerSM)
    return true;
  Error =
      fail(Kind::TooManyThreads, "--min-blocks",
           "--min-blocks " + std::to_string(P.MinBlocks) + " with " +
               std::to_string(P.Threads) + "-thread blocks asks for " +
               std::to_string(P.MinBlocks * P.Threads) +
               " threads per SM; an SM of " + P.Gpu.Name + " holds at most " +
               std::to_string(P.Gpu.ThreadsPerSM) + ", use a smaller " + Fix);
  return false;
}

/// P.Threads fits a CUDA block and --min-blocks of them an SM; sets
/// P.MinBlocks.
static bool checkBlock(const PlanOptions &Opts, Plan &P, PlanError &Error) {
  if (P.Threads > P.Gpu.MaxThreadsPerBlock) {
    Error =
        fail(Kind::TooManyThreads, "-bS",
             "-bS " + userBlockSizes(P.BS) + " makes blocks of " +
                 std::to_string(P.Threads) + " threads; CUDA allows at most " +
                 std::to_string(P.Gpu.MaxThreadsPerBlock) +
                 " threads per block, use a smaller -bS");
    return false;
  }
  return setMinBlocks(Opts, "--min-blocks or -bS", P, Error);
}

/// Plans the naive scheme: a fixed block, no temporal blocking.
static bool makeNaivePlan(const PlanOptions &Opts, Plan &P, PlanError &Error) {
  // One step per launch reads two levels and writes a third.
  if (P.TimeLevels == 3)
    P.DevicePlanes = P.Planes * ((3 + P.Planes - 1) / P.Planes);
  std::vector<int64_t> Block = naiveBlock(P.Dims);
  P.Family = NaiveLayout{Block};
  P.BS.assign(Block.begin() + 1, Block.end());
  P.BT = 1;
  P.Threads = 1;
  for (int64_t B : Block)
    P.Threads *= B;
  return setMinBlocks(Opts, "--min-blocks", P, Error);
}

/// Shared slots for an asynchronous read-ahead of Prefetch rows: the
/// smallest divisor of Unroll above Prefetch, so that every unrolled row
/// names its slot by a constant; Unroll grows when it has none.
static int64_t aheadSlots(int64_t &Unroll, int64_t Prefetch) {
  if (Prefetch == 0)
    return 0;
  for (int64_t S = Prefetch + 1; S <= Unroll; ++S)
    if (Unroll % S == 0)
      return S;
  Unroll = std::lcm(Unroll, Prefetch + 1);
  return Prefetch + 1;
}

/// --halo-rows needs one shared row (star or associative kernel), copies
/// into shared memory, and a thread along j for each halo row.
static bool checkHaloRows(const Plan &P, bool Async, PlanError &Error) {
  const std::vector<int64_t> &SharedRows = P.scalar().SharedRows;
  if (SharedRows != std::vector<int64_t>{0}) {
    Error =
        fail(Kind::Conflict, "--halo-rows",
             std::string("--halo-rows needs the star or associative kernel ") +
                 "(one row in shared memory); " +
                 (SharedRows.empty()
                      ? "this stencil reads no other column"
                      : "the general kernel (--opt=none) keeps one per row of "
                        "the reach") +
                 "; use --opt=star or --opt=assoc where they apply, or drop "
                 "--halo-rows");
    return false;
  }
  if (!Async) {
    Error = fail(Kind::Conflict, "--halo-rows",
                 "--halo-rows copies the halo rows asynchronously; it needs "
                 "--async-prefetch and --prefetch of at least 1");
    return false;
  }
  int64_t Rows = P.Lo[1] + P.Hi[1];
  if (P.BS[0] < Rows) {
    Error =
        fail(Kind::BlockTooSmall, "-bS",
             "--halo-rows: -bS " + userBlockSizes(P.BS) + " has " +
                 std::to_string(P.BS[0]) + " threads along Y, fewer than the " +
                 std::to_string(Rows) +
                 " halo rows (reach along j) they copy; "
                 "use a larger Y");
    return false;
  }
  return true;
}

static int64_t ceilDiv(int64_t A, int64_t B) { return (A + B - 1) / B; }

/// "the limit on H100 is 232448 bytes (227 KiB)": P.Gpu's shared memory
/// per block, for the messages of a block that needs more.
static std::string sharedLimit(const Plan &P) {
  return "the limit on " + P.Gpu.Name + " is " +
         std::to_string(P.Gpu.SharedPerBlock) + " bytes (" +
         std::to_string(P.Gpu.SharedPerBlock / 1024) + " KiB)";
}

/// Plans the vector-cell kernel (--kvec, VectorLayout) once the options
/// common to every N.5D kernel are checked: 3D, star, one step per launch.
static bool makeVecPlan(const Stencil &S, const StencilAnalysis &A,
                        const PlanOptions &Opts, Plan &P, PlanError &Error) {
  std::string V = "--kvec " + std::to_string(Opts.VecK);
  int64_t Bytes = Opts.VecK * elemTypeBytes(P.Elem);
  if (P.Dims != 3) {
    Error = fail(Kind::Conflict, "--kvec",
                 V + " applies to 3D stencils; in 2D the cells of a thread lie "
                     "bS apart along the contiguous dimension (--cells)");
    return false;
  }
  if (Bytes != 8 && Bytes != MaxVectorBytes) {
    Error = fail(
        Kind::OutOfRange, "--kvec",
        V + ": " + std::to_string(Opts.VecK) + " " + elemTypeName(P.Elem) +
            " cells make " + std::to_string(Bytes) +
            " bytes; a vector of cells is 8 or 16 bytes (--kvec 2 or 4 for "
            "float, 2 for double)");
    return false;
  }
  if (!P.Gpu.hasAsyncCopy()) {
    Error = fail(Kind::TargetLacks, "--kvec",
                 V + " copies vectors with cp.async, which " + P.Gpu.Name +
                     " (" + P.Gpu.arch() +
                     ") does not have (sm_80 and newer); drop --kvec");
    return false;
  }
  if (Opts.Kernel != KernelKind::Auto && Opts.Kernel != KernelKind::Star) {
    Error = fail(Kind::Conflict, "--kvec",
                 V +
                     " is a star kernel (rows above and below from registers); "
                     "drop --opt=" +
                     std::string(kernelKindName(Opts.Kernel)) + " or --kvec");
    return false;
  }
  if (std::optional<PlanError> E = vectorRefusal(S, A, Opts.VecK)) {
    Error = *E;
    return false;
  }
  P.Kernel = KernelKind::Star;
  if (Opts.HaloRows) {
    Error = fail(Kind::Conflict, "--kvec",
                 V + " copies every row of level 0, the halo rows included; "
                     "drop --halo-rows");
    return false;
  }
  VectorLayout &VL = P.Family.emplace<VectorLayout>();
  VL.Lanes = Opts.VecK;
  VL.HaloLo = ceilDiv(P.Lo[2], VL.Lanes);
  VL.HaloHi = ceilDiv(P.Hi[2], VL.Lanes);
  // Level L of a degree-D launch is valid D - L halos inside the loaded
  // region, which is one halo wider than the threads' cells along j (rows)
  // and k (vectors): the threads compute level 1 wherever it is valid, and
  // a degree's tile (j rows, k cells) is D - 1 halos smaller.
  auto tileOfDegree = [&P, &VL](int64_t Degree) -> std::vector<int64_t> {
    return {P.span(0) - (Degree - 1) * (P.Lo[1] + P.Hi[1]),
            (P.BS[1] - (Degree - 1) * (VL.HaloLo + VL.HaloHi)) * VL.Lanes};
  };
  std::vector<int64_t> Tile = tileOfDegree(P.BT);
  int64_t Halo = P.BS[1] - Tile[1] / VL.Lanes;
  int64_t RowHalo = P.span(0) - Tile[0];
  if (Tile[1] <= 0) {
    Error =
        fail(Kind::BlockTooSmall, "-bS",
             "-bS " + userBlockSizes(P.BS) + " with " + V + " and -bT " +
                 std::to_string(P.BT) + ": a block needs more than " +
                 std::to_string(Halo) +
                 " threads along X (the halo vectors along "
                 "k of levels 1 .. bT - 1); use more threads or a smaller -bT");
    return false;
  }
  if (Tile[0] <= 0) {
    Error = fail(Kind::BlockTooSmall, "-bS",
                 "-bS " + userBlockSizes(P.BS) + " with " + V + " and -bT " +
                     std::to_string(P.BT) + ": a block's " +
                     std::to_string(P.span(0)) +
                     " rows along Y (threads x --cells) lose " +
                     std::to_string(RowHalo) +
                     " to the halo of levels 1 .. bT - 1 "
                     "and keep none; use more rows or a smaller -bT");
    return false;
  }
  P.Threads = P.BS[0] * P.BS[1];
  if (!checkBlock(Opts, P, Error))
    return false;
  // Unless the user says otherwise, let each thread have 128 registers:
  // the register ring holds ring x cells x VecK values.
  if (!P.MinBlocks)
    P.MinBlocks = std::max<int64_t>(1, P.Gpu.RegistersPerSM / (128 * P.Threads));
  P.Ring = P.Lo[0] + P.Hi[0] + 1;
  if (P.TimeLevels == 3) {
    // Level L reads level L - 2 of its own row from that level's register
    // ring, 2 hi_0 rows behind the newest; launches write levels D - 1 and
    // D into planes no launch reads (level l in plane l mod DevicePlanes).
    P.Ring = std::max(P.Ring, 2 * P.Hi[0] + 1);
    P.DevicePlanes = P.Planes * ((P.BT + 2 + P.Planes - 1) / P.Planes);
  }
  VL.Planes = P.Prefetch + P.Hi[0] + 2;
  // Level L's row is read by level L + 1 hi_0 rows later: a ring of hi_0 + 1
  // planes per level needs no __syncthreads but the row's first.
  VL.LevelRing = P.Hi[0] ? P.Hi[0] + 1 : 0;
  VL.LevelPlanes = P.Hi[0] ? (P.BT - 1) * VL.LevelRing
                             : std::min<int64_t>(P.BT - 1, 2);
  P.SharedExtent = {P.span(0) + P.Lo[1] + P.Hi[1],
                    (P.BS[1] + VL.HaloLo + VL.HaloHi) * VL.Lanes};
  P.SharedPlaneCells = P.SharedExtent[0] * P.SharedExtent[1];
  int64_t Planes = VL.Planes + VL.LevelPlanes;
  P.SharedBytes = Planes * P.SharedPlaneCells * elemTypeBytes(P.Elem);
  if (P.SharedBytes > P.Gpu.SharedPerBlock) {
    Error =
        fail(Kind::SharedMemory, "-bS",
             "-bS " + userBlockSizes(P.BS) + " with " + V + " needs " +
                 std::to_string(P.SharedBytes) +
                 " bytes of shared memory per "
                 "block (" +
                 std::to_string(Planes) + " planes of " +
                 joinX(P.SharedExtent) + " " + elemTypeName(P.Elem) + "); " +
                 sharedLimit(P) + ", use a smaller -bS, --cells or --prefetch");
    return false;
  }
  // Degree 1 serves the last steps of every run (both planes end as the C
  // loop leaves them); degree bT the others.
  auto kernelOfDegree = [&](int64_t Degree) {
    KernelPlan K;
    K.Degree = Degree;
    K.Tile = tileOfDegree(Degree);
    K.Unroll = P.Ring;
    return K;
  };
  P.Kernels = {kernelOfDegree(1)};
  if (P.BT > 1)
    P.Kernels.push_back(kernelOfDegree(P.BT));
  return true;
}

/// makePlan without the build line's ptxas level.
static bool planShape(const Stencil &S, const StencilAnalysis &A,
                      const PlanOptions &Opts, Plan &P, PlanError &Error) {
  P = Plan();
  P.Gpu = Opts.Gpu;
  P.Dims = S.numSpaceDims();
  P.Elem = S.Elem;
  P.Lo = A.ReachLo;
  P.Hi = A.ReachHi;
  P.WriteShift = A.WriteShift;
  P.TimeLevels = A.TimeLevels;
  P.Planes = A.Planes;
  P.Run = Opts.Run;
  if (std::optional<PlanError> E = checkOptions(
          Opts, P.Dims, P.Elem, S.numSpaceDims() - S.VirtualDims)) {
    Error = *E;
    return false;
  }
  if (P.Run == Scheme::Naive)
    return makeNaivePlan(Opts, P, Error);

  P.Kernel = Opts.Kernel == KernelKind::Auto ? autoKernel(A) : Opts.Kernel;
  if (std::optional<PlanError> E = kernelRefusal(S, A, P.Kernel)) {
    Error = *E;
    return false;
  }
  P.BT = Opts.BT;
  // Two rows ahead: deeper read-ahead measured no faster on an H200, even
  // at bT 1 in 3D (docs/performance.md), and costs a register per row.
  P.Prefetch = Opts.Prefetch.value_or(2);
  P.StreamBlock = Opts.StreamBlock;
  unsigned Blocked = P.Dims - 1;
  P.BS = planBlockSizes(Opts, P.Dims);
  P.Cells = Opts.Cells;
  if (Opts.VecK > 1)
    return makeVecPlan(S, A, Opts, P, Error);
  ScalarLayout &L = P.scalar();
  L.SmVec = Opts.SmVec;
  L.HaloRows = Opts.HaloRows;
  if (L.HaloRows && P.Dims != 3) {
    Error =
        fail(Kind::Conflict, "--halo-rows",
             "--halo-rows applies to 3D stencils; a 2D block's halo threads "
             "lie along the contiguous dimension, where copies of halo "
             "columns would not coalesce");
    return false;
  }
  // The rows in shared memory follow from the kernel alone; --halo-rows's
  // needs are checked before the block's size, which they may explain.
  P.Ring = P.Lo[0] + P.Hi[0] + 1;
  if (P.TimeLevels == 3) {
    // Level L reads level L - 2 of its own row from that level's ring,
    // 2 hi_0 rows behind the newest: the ring must span them.
    P.Ring = std::max(P.Ring, 2 * P.Hi[0] + 1);
    // Launches write levels bT - 1 and bT (and at the end bT - 2) into
    // planes no launch reads: level l lives in plane l mod DevicePlanes,
    // a multiple of 3 so that each plane keeps one user plane's boundary.
    P.DevicePlanes = P.Planes * ((P.BT + 2 + P.Planes - 1) / P.Planes);
  }
  std::set<int64_t> Rows;
  for (const std::vector<int64_t> &O : A.Offsets) {
    bool OwnColumn = true;
    for (unsigned D = 1; D < P.Dims; ++D)
      OwnColumn = OwnColumn && O[D] == 0;
    if (!OwnColumn)
      Rows.insert(O[0]);
  }
  if (!Rows.empty() && P.Kernel == KernelKind::None)
    for (int64_t Off = -P.Lo[0]; Off <= P.Hi[0]; ++Off)
      Rows.insert(Off);
  if (!Rows.empty() && P.Kernel == KernelKind::Assoc)
    Rows = {0};
  L.SharedRows.assign(Rows.begin(), Rows.end());
  // Without shared rows there is no __syncthreads to wait at: registers.
  bool Async = Opts.AsyncPrefetch && !Rows.empty();
  if (L.HaloRows && !checkHaloRows(P, Async && P.Prefetch > 0, Error))
    return false;
  P.Threads = 1;
  for (unsigned D = 0; D < Blocked; ++D) {
    int64_t Reach = P.Lo[D + 1] + P.Hi[D + 1];
    int64_t Degrees = P.haloDegrees(D, P.BT);
    if (P.span(D) <= Degrees * Reach) {
      std::string Which = Blocked == 1 ? "" : (D + 1 == Blocked ? " along X"
                                                                : " along Y");
      std::string Cells = D == 0 && P.Cells > 1
                              ? " (" + std::to_string(P.BS[D]) +
                                    " threads x --cells " +
                                    std::to_string(P.Cells) + ")"
                              : "";
      Error = fail(Kind::BlockTooSmall, "-bS",
                   "-bS " + userBlockSizes(P.BS) + " is too small for -bT " +
                       std::to_string(P.BT) + ": a block of " +
                       std::to_string(P.span(D)) + " " +
                       (Cells.empty() ? "threads" : "cells" + Cells) + Which +
                       " loses " + std::to_string(Degrees * Reach) +
                       " columns to the halo (" +
                       (Degrees == P.BT ? "bT" : "(bT - 1)") + " * reach " +
                       std::to_string(Reach) + ") and keeps none; use " +
                       (Cells.empty() ? "-bS larger than " : "more than ") +
                       std::to_string(Degrees * Reach) +
                       (Cells.empty() ? "" : " cells (-bS times --cells)") +
                       " or a smaller -bT");
      return false;
    }
    P.Threads *= P.BS[D];
  }
  if (!checkBlock(Opts, P, Error))
    return false;

  P.SharedPlaneCells = 1;
  for (unsigned D = 0; D < Blocked; ++D) {
    P.SharedExtent.push_back(P.span(D) + P.Lo[D + 1] + P.Hi[D + 1]);
    P.SharedPlaneCells *= P.SharedExtent.back();
  }
  P.SharedBytes = 2 * int64_t(L.SharedRows.size()) * P.SharedPlaneCells *
                  elemTypeBytes(P.Elem);
  if (P.SharedBytes > P.Gpu.SharedPerBlock) {
    Error = fail(Kind::SharedMemory, "-bS",
                 "-bS " + userBlockSizes(P.BS) + " needs " +
                     std::to_string(P.SharedBytes) +
                     " bytes of shared memory per block (2 buffers of " +
                     std::to_string(L.SharedRows.size()) + " rows of " +
                     joinX(P.SharedExtent) + " " + elemTypeName(P.Elem) +
                     "); " + sharedLimit(P) + ", use a smaller -bS");
    return false;
  }

  for (int64_t Deg = 1; Deg <= P.BT; ++Deg) {
    KernelPlan K;
    K.Degree = Deg;
    for (unsigned D = 0; D < Blocked; ++D)
      K.Tile.push_back(P.span(D) -
                       P.haloDegrees(D, Deg) * (P.Lo[D + 1] + P.Hi[D + 1]));
    bool Parity = !L.SharedRows.empty() && Deg % 2 == 1;
    K.Unroll = Parity ? std::lcm(P.Ring, int64_t(2)) : P.Ring;
    if (Async)
      K.AheadSlots = aheadSlots(K.Unroll, P.Prefetch);
    // The halo slot of the row level 1 shares must outlive the copies of
    // the rows in flight.
    if (L.HaloRows)
      K.HaloSlots = aheadSlots(K.Unroll, P.Prefetch + P.levelOneLag());
    L.AheadSlots = std::max(L.AheadSlots, K.AheadSlots);
    L.HaloSlots = std::max(L.HaloSlots, K.HaloSlots);
    P.Kernels.push_back(K);
  }
  P.SharedBytes += (L.AheadSlots * P.Threads * P.Cells +
                    L.HaloSlots * P.haloThreads()) *
                   elemTypeBytes(P.Elem);
  if (P.SharedBytes > P.Gpu.SharedPerBlock) {
    Error = fail(Kind::SharedMemory, "--async-prefetch",
                 "--async-prefetch with -bS " + userBlockSizes(P.BS) +
                     " needs " + std::to_string(P.SharedBytes) +
                     " bytes of shared memory per "
                     "block; " +
                     sharedLimit(P) + ", use a smaller -bS or --prefetch");
    return false;
  }
  return true;
}

int64_t an5d::registerBudget(const Plan &P) {
  int64_t Blocks = std::max<int64_t>(P.MinBlocks, 1);
  int64_t Budget = P.Gpu.RegistersPerSM / (P.Threads * Blocks);
  Budget -= Budget % P.Gpu.RegisterUnit;
  return std::min(Budget, P.Gpu.MaxRegistersPerThread);
}

/// Whether the update's wide double literals, a register pair each, would
/// fill more than 3/4 of the registers a thread of P may use.
static bool literalsCrowd(const StencilAnalysis &A, const Plan &P) {
  return P.Run == Scheme::N5D &&
         4 * (2 * A.WideDoubleLiterals) > 3 * registerBudget(P);
}

/// Sets P.PtxasOpt: --ptxas-opt, or auto (Plan::PtxasOpt).
static void setPtxasLevel(const StencilAnalysis &A, const PlanOptions &Opts,
                          Plan &P) {
  assert(Opts.PtxasOpt >= 0 && Opts.PtxasOpt <= 3 &&
         "the driver accepts auto, 1, 2 or 3");
  if (Opts.PtxasOpt != 0) {
    P.PtxasOpt = Opts.PtxasOpt;
    P.PtxasReason = P.PtxasOpt == 3 ? "" : "given on the command line";
    return;
  }
  // With several cells per thread -O1 spilled too and ran slower than the
  // spilling -O3 code (box3d2r double, 2 cells: 0.89x-0.93x on the H200).
  if (literalsCrowd(A, P) && P.Cells == 1) {
    P.PtxasOpt = 1;
    P.PtxasReason =
        std::to_string(A.WideDoubleLiterals) +
        " double literals no SASS immediate holds, in register pairs more "
        "than 3/4 of the " +
        std::to_string(registerBudget(P)) +
        " registers a thread may use: ptxas -O3 keeps them in registers "
        "across the streaming loop and spills";
  }
}

/// Sets P.LiteralMoves and P.LiteralRegisters from P.PtxasOpt (after
/// setPtxasLevel).
static void setLiteralCosts(const StencilAnalysis &A, Plan &P) {
  int64_t Pairs = 2 * A.WideDoubleLiterals;
  if (P.PtxasOpt < 3 && !literalsInConstantTable(P.Dims))
    P.LiteralMoves = Pairs;
  if (P.Run != Scheme::N5D || P.PtxasOpt < 3)
    return;
  // At -O3 ptxas keeps crowding literals in registers and spills; below
  // that threshold it still keeps some of them (or their table entries):
  // ptxas -v on box2d1r-4r double (8-71 literals, bT 1-3, 1-2 cells) ran
  // over the estimate by 0-21 registers at 45 literals and by 30-73 at 71,
  // and not at all below (h200-2026-11-30-ptxas-double-assoc.csv).
  constexpr int64_t UnkeptPairs = 100;
  P.LiteralRegisters = literalsCrowd(A, P)
                           ? Pairs
                           : std::max<int64_t>(0, Pairs - UnkeptPairs);
}

const Plan &an5d::buildLevelPlan(const std::vector<Plan> &Plans) {
  assert(!Plans.empty() && "a file has at least one plan");
  const Plan *Low = &Plans[0];
  for (const Plan &P : Plans)
    if (P.PtxasOpt < Low->PtxasOpt)
      Low = &P;
  return *Low;
}

std::string an5d::nvccFlags(const std::vector<Plan> &Plans) {
  const Plan &Build = buildLevelPlan(Plans);
  assert(std::all_of(Plans.begin(), Plans.end(),
                     [&](const Plan &P) {
                       return P.Gpu.Name == Build.Gpu.Name;
                     }) &&
         "one file, one target");
  int64_t Level = Build.PtxasOpt;
  return "-O3 -arch=" + Build.Gpu.arch() +
         (Build.FastMath ? " --use_fast_math" : "") +
         (Build.Mpi ? " -ccbin mpicxx" : "") +
         (Level == 3 ? std::string() : " -Xptxas -O" + std::to_string(Level));
}

double an5d::verifyTolerance(ElemType Elem, bool FastMath) {
  // Under --fast-math a step adds a reassociated sum's rounding (an ulp of
  // the sum of |terms| per term) and the approximate quotients' 2 ulp: for
  // an averaging stencil that is below 1e-6 per float step, so 1000 steps
  // stay under 1e-3.
  double Exact = Elem == ElemType::Float ? 1e-4 : 1e-10;
  return FastMath ? 10 * Exact : Exact;
}

std::optional<PlanError> an5d::makePlan(const Stencil &S,
                                        const StencilAnalysis &A,
                                        const PlanOptions &Opts, Plan &P) {
  PlanError Error;
  if (!planShape(S, A, Opts, P, Error))
    return Error;
  setPtxasLevel(A, Opts, P);
  setLiteralCosts(A, P);
  P.FastMath = A.FastMath;
  P.FloatInDouble = A.FloatInDouble;
  P.VerifyTolerance = verifyTolerance(
      A.FloatInDouble ? ElemType::Float : S.Elem, A.FastMath);
  P.Mpi = Opts.Mpi;
  return std::nullopt;
}

void Plan::dump(llvm::raw_ostream &OS) const {
  dumpShape(OS);
  OS << "  ptxas: -O" << PtxasOpt
     << (PtxasReason.empty() ? "" : " (" + PtxasReason + ")") << "\n";
  if (LiteralRegisters > 0)
    OS << "  double literals kept in registers: " << LiteralRegisters << "\n";
  if (LiteralMoves > 0)
    OS << "  moves per update rebuilding double literals: " << LiteralMoves
       << "\n";
  if (Mpi)
    OS << "  mpi: one slab per rank (--mpi)\n";
  if (FastMath)
    OS << "  math: fast (nvcc --use_fast_math; the update may be "
          "reassociated)\n";
  OS << "  ";
  Gpu.dump(OS);
}

void Plan::dumpShape(llvm::raw_ostream &OS) const {
  OS << "plan\n";
  OS << "  scheme: " << schemeName(Run) << "\n";
  if (const NaiveLayout *N = std::get_if<NaiveLayout>(&Family)) {
    OS << "  dimensions: " << Dims << "\n";
    OS << "  element type: " << elemTypeName(Elem) << "\n";
    OS << "  block: " << userBlockSizes(N->Block) << " (threads per block: "
       << Threads << "), one thread per cell, one launch per step\n";
    OS << "  min blocks per SM: " << MinBlocks << "\n";
    return;
  }
  OS << "  kernel: " << kernelKindName(Kernel) << "\n";
  OS << "  min blocks per SM: " << MinBlocks
     << (MinBlocks ? "" : " (not set)") << "\n";
  OS << "  shared-memory reads: " << (plainSharedLoads() ? "vectorizable" : "scalar")
     << "\n";
  const ScalarLayout *L = std::get_if<ScalarLayout>(&Family);
  OS << "  level 0 read ahead: " << Prefetch << " rows"
     << (L && L->AheadSlots ? " (asynchronous copies into shared memory)" : "")
     << "\n";
  OS << "  dimensions: " << Dims << " (streaming along dimension 0)\n";
  OS << "  element type: " << elemTypeName(Elem) << "\n";
  if (!Origin.empty())
    OS << "  parameters: " << Origin << "\n";
  OS << "  bT: " << BT << "\n";
  OS << "  bS: " << userBlockSizes(BS) << " (threads per block: " << Threads
     << ")\n";
  if (Cells > 1)
    OS << "  cells per thread: " << Cells << " along dimension 1, "
       << (adjacentCells() ? std::string("adjacent")
                           : std::to_string(BS[0]) + " apart")
       << " (a block spans " << span(0) << ")\n";
  if (haloRows())
    OS << "  halo rows: level 0's " << Lo[1] + Hi[1]
       << " rows beside the block along dimension 1 copied by its first "
       << Lo[1] + Hi[1] << " rows of threads (" << L->HaloSlots
       << " slots each, " << L->HaloSlots * haloThreads() * elemTypeBytes(Elem)
       << " bytes of shared memory)\n";
  OS << "  stream block (hSN): " << StreamBlock << " rows\n";
  OS << "  reach:";
  for (unsigned D = 0; D < Dims; ++D)
    OS << " [-" << Lo[D] << ", +" << Hi[D] << "]";
  OS << "\n  register ring: " << Ring << " rows per level\n";
  if (const VectorLayout *V = std::get_if<VectorLayout>(&Family)) {
    OS << "  vector cells: " << V->Lanes << " adjacent along dimension 2 per "
       << "thread and row (" << V->Lanes * elemTypeBytes(Elem) << " bytes), "
       << V->HaloLo << " + " << V->HaloHi << " halo vectors per row\n";
    OS << "  shared planes: " << V->Planes << " of " << joinX(SharedExtent)
       << (V->LevelPlanes ? " + " + std::to_string(V->LevelPlanes) +
                                " for levels 1 .. bT - 1"
                          : std::string())
       << ", " << SharedBytes << " bytes\n";
    for (const KernelPlan &K : Kernels)
      OS << "  degree " << K.Degree << ": tile " << joinX(K.Tile) << " x "
         << StreamBlock << " rows, unrolled by " << K.Unroll << " rows\n";
    return;
  }
  OS << "  shared rows: " << L->SharedRows.size() << " (streaming offsets:";
  for (int64_t R : L->SharedRows)
    OS << " " << R;
  int64_t HaloBytes = L->HaloSlots * haloThreads() * elemTypeBytes(Elem);
  int64_t Slots = L->AheadSlots * Threads * Cells * elemTypeBytes(Elem);
  OS << "), padded plane " << joinX(SharedExtent) << ", 2 buffers, "
     << SharedBytes - Slots - HaloBytes << " bytes\n";
  if (L->AheadSlots)
    OS << "  read-ahead slots: " << L->AheadSlots << " per thread"
       << (Cells > 1 ? " and cell" : "") << ", " << Slots
       << " bytes (shared memory per block: " << SharedBytes << " bytes)\n";
  OS << "  write plane: (t + " << WriteShift << ") % " << Planes << "\n";
  if (TimeLevels == 3)
    OS << "  time levels: 3 (level l in device plane l mod " << DevicePlanes
       << ")\n";
  for (const KernelPlan &K : Kernels)
    OS << "  degree " << K.Degree << ": tile " << joinX(K.Tile) << " x "
       << StreamBlock << " rows, unrolled by " << K.Unroll << " rows"
       << (K.AheadSlots ? ", " + std::to_string(K.AheadSlots) +
                              " read-ahead slots"
                        : std::string())
       << "\n";
}

// --- Several fields ----------------------------------------------------------

namespace {

/// Where a row iteration of the N.5D kernel of several fields needs a
/// barrier: before a stage that reads another thread's element of a ring
/// row stored since the last barrier, or stores a ring row another thread
/// read since then (rows are keyed by ring and row modulo RingRows); and
/// at the end of each iteration. Most stages read their neighbours in rows
/// of earlier iterations (their lag), which that last barrier separates.
void fieldBarriers(const Stencil &S, const FieldsAnalysis &A, FieldsPlan &P) {
  using Key = std::pair<size_t, int64_t>; // (ring, row after x mod RingRows)
  auto key = [&](const FieldSource &X, int64_t Row) {
    size_t Ring = X.Input ? X.Index : P.Slots.size() + X.Index;
    return Key{Ring, ((Row % P.RingRows) + P.RingRows) % P.RingRows};
  };
  std::set<Key> Stored, ReadByOthers;
  for (unsigned K = 0; K < P.Slots.size(); ++K)
    Stored.insert(key(FieldSource{true, K}, 0));
  P.BarrierBefore.assign(P.Stages.size(), false);
  for (size_t G = 0; G < P.Stages.size(); ++G) {
    const FieldStage &X = P.Stages[G];
    const FieldStatement &F = S.FieldStatements[X.Statement];
    // Reads at other threads' elements: a nonzero offset after the first
    // dimension (the previous value is always the thread's own).
    std::vector<Key> Others;
    for (unsigned R = F.FirstRead; R < F.EndRead; ++R) {
      const std::vector<int64_t> &O = A.ReadOffsets[R];
      if (std::any_of(O.begin() + 1, O.end(), [](int64_t V) { return V; }))
        Others.push_back(key(X.Reads[R - F.FirstRead], O[0] - X.Lag));
    }
    Key Write = key(FieldSource{false, (unsigned)G}, -X.Lag);
    bool Needed = ReadByOthers.count(Write) > 0;
    for (const Key &K : Others)
      Needed = Needed || Stored.count(K) > 0;
    if (Needed) {
      P.BarrierBefore[G] = true;
      Stored.clear();
      ReadByOthers.clear();
    }
    ReadByOthers.insert(Others.begin(), Others.end());
    Stored.insert(Write);
  }
  P.BarriersPerRow =
      1 + std::count(P.BarrierBefore.begin(), P.BarrierBefore.end(), true);
}

/// The stages of BT steps, their sources and lags, and the ring's rows.
void fieldStages(const Stencil &S, const FieldsAnalysis &A, FieldsPlan &P) {
  // Slot of (field, parity): an in-place field has one.
  auto slotOf = [&](unsigned Field, int64_t Parity) {
    unsigned Par = S.Fields[Field].Planes == 2 ? (unsigned)(Parity & 1) : 0;
    for (unsigned K = 0; K < P.Slots.size(); ++K)
      if (P.Slots[K].Field == Field && P.Slots[K].Parity == Par)
        return K;
    P.Slots.push_back({Field, Par});
    return (unsigned)P.Slots.size() - 1;
  };
  for (unsigned F = 0; F < S.Fields.size(); ++F)
    for (unsigned Par = 0; Par < S.Fields[F].Planes; ++Par)
      slotOf(F, Par);
  // The plane an access selects, relative to the launch's first step.
  auto parity = [&](const Access &X, int64_t Step) {
    return Step + (X.TimeBase - AffineExpr::symbol(S.Time.Iter)).Constant;
  };
  std::vector<std::optional<unsigned>> Latest(P.Slots.size());
  auto source = [&](unsigned Slot) {
    FieldSource Src;
    if (Latest[Slot]) {
      Src.Input = false;
      Src.Index = *Latest[Slot];
    } else {
      Src.Index = Slot;
    }
    return Src;
  };
  auto lagOf = [&](const FieldSource &Src) {
    return Src.Input ? int64_t(0) : P.Stages[Src.Index].Lag;
  };
  for (int64_t Step = 0; Step < P.BT; ++Step)
    for (unsigned Q = 0; Q < S.FieldStatements.size(); ++Q) {
      const FieldStatement &F = S.FieldStatements[Q];
      FieldStage G;
      G.Statement = Q;
      G.Step = Step;
      G.Slot = slotOf(F.Field, parity(F.Write, Step));
      G.Prev = source(G.Slot);
      G.Lag = lagOf(G.Prev);
      for (unsigned R = F.FirstRead; R < F.EndRead; ++R) {
        const Access &X = S.Reads[R];
        FieldSource Src = source(slotOf(X.Field, parity(X, Step)));
        G.Reads.push_back(Src);
        G.Lag = std::max(G.Lag, lagOf(Src) + A.ReadOffsets[R][0]);
      }
      Latest[G.Slot] = P.Stages.size();
      P.Stages.push_back(std::move(G));
    }
  P.LastWriter = Latest;
  // A row stays in its ring until the last stage reading it has.
  int64_t Rows = 1;
  for (const FieldStage &G : P.Stages) {
    P.MaxLag = std::max(P.MaxLag, G.Lag);
    const FieldStatement &F = S.FieldStatements[G.Statement];
    Rows = std::max(Rows, G.Lag - lagOf(G.Prev) + 1);
    for (unsigned R = F.FirstRead; R < F.EndRead; ++R)
      Rows = std::max(Rows, G.Lag - lagOf(G.Reads[R - F.FirstRead]) -
                                A.ReadOffsets[R][0] + 1);
  }
  P.RingRows = 1;
  while (P.RingRows < Rows)
    P.RingRows *= 2;
  fieldBarriers(S, A, P);
}

} // namespace

std::optional<PlanError> an5d::makeFieldsPlan(const Stencil &S,
                                              const FieldsAnalysis &A,
                                              const FieldsOptions &O,
                                              const Target &Gpu,
                                              FieldsPlan &P) {
  P = FieldsPlan();
  P.Gpu = Gpu;
  P.VerifyTolerance = verifyTolerance(S.Elem, /*FastMath=*/false);
  // A 1D grid has no tile to block: naive. Otherwise what O asks (the
  // driver's model chooses when the user does not); unset: N.5D.
  P.Run = S.GridDims == 1 ? Scheme::Naive : O.Run.value_or(Scheme::N5D);
  auto fail = [](PlanError::Kind K, const std::string &Option,
                 const std::string &Msg) {
    PlanError E;
    E.What = K;
    E.Option = Option;
    E.Message = Msg;
    return E;
  };
  if (P.Run == Scheme::Naive) {
    // 256 threads, whole warps along the contiguous dimension.
    switch (S.GridDims) {
    case 1: P.Block = {256}; break;
    case 2: P.Block = {32, 8}; break;
    default: P.Block = {32, 4, 2}; break;
    }
    P.Threads = 1;
    for (int64_t B : P.Block)
      P.Threads *= B;
    return std::nullopt;
  }
  const unsigned D = S.GridDims;
  // Defaults from a sweep of fdtd-2d on an H200 (bT 4-8, tiles of 64 and
  // 128, 256 and 512 rows; benchmarks/results/log-2026-11-28-fields.md).
  P.StreamBlock = O.StreamBlock.value_or(256);
  if (P.StreamBlock < 1 || P.StreamBlock > 1 << 20)
    return fail(PlanError::Kind::OutOfRange, "--sl",
                "--sl " + std::to_string(P.StreamBlock) +
                    " is out of range; use 1 to 1048576 rows");
  P.Tile = !O.Tile.empty() ? O.Tile
           : D == 2        ? std::vector<int64_t>{128}
                           : std::vector<int64_t>{16, 16};
  if (P.Tile.size() != D - 1)
    return fail(PlanError::Kind::Count, "-bS",
                "-bS takes " + std::to_string(D - 1) + " size" +
                    (D == 2 ? "" : "s") + " for this " + std::to_string(D) +
                    "D grid (threads of a tile along the dimensions after "
                    "the first)");
  P.Threads = 1;
  for (int64_t T : P.Tile)
    P.Threads *= T;
  if (P.Threads > Gpu.MaxThreadsPerBlock)
    return fail(PlanError::Kind::TooManyThreads, "-bS",
                "-bS asks for " + std::to_string(P.Threads) +
                    " threads a block; the GPU takes at most " +
                    std::to_string(Gpu.MaxThreadsPerBlock));
  // Without -bT: the most steps, up to 6, whose rings fit 96 KiB (two
  // blocks an SM) and leave each tile dimension half its threads.
  const int64_t Elem = elemTypeBytes(S.Elem);
  std::optional<PlanError> Last;
  for (int64_t BT = O.BT.value_or(6); BT >= (O.BT ? *O.BT : 1); --BT) {
    if (BT < 1 || BT > 64)
      return fail(PlanError::Kind::OutOfRange, "-bT",
                  "-bT " + std::to_string(BT) +
                      " is out of range; use 1 to 64 steps a launch");
    FieldsPlan Try = P;
    Try.BT = BT;
    fieldStages(S, A, Try);
    Try.HaloLo.assign(D, 0);
    Try.HaloHi.assign(D, 0);
    for (size_t Q = 0; Q < S.FieldStatements.size(); ++Q)
      for (unsigned Dm = 0; Dm < D; ++Dm) {
        Try.HaloLo[Dm] += BT * A.ReachLo[Q][Dm];
        Try.HaloHi[Dm] += BT * A.ReachHi[Q][Dm];
      }
    Try.SharedBytes = (int64_t)(Try.Slots.size() + Try.Stages.size()) *
                      Try.RingRows * Try.Threads * Elem;
    bool Fits = Try.SharedBytes <= (O.BT ? Gpu.SharedPerBlock : 96 * 1024);
    for (unsigned Dm = 1; Dm < D; ++Dm) {
      int64_t Inner = Try.Tile[Dm - 1] - Try.HaloLo[Dm] - Try.HaloHi[Dm];
      Fits = Fits && Inner >= (O.BT ? 1 : Try.Tile[Dm - 1] / 2);
    }
    if (Fits) {
      P = std::move(Try);
      return std::nullopt;
    }
    Last = fail(PlanError::Kind::SharedMemory, O.BT ? "-bT" : "-bS",
                "-bT " + std::to_string(BT) + " with tiles of " +
                    std::to_string(Try.Threads) + " threads needs " +
                    std::to_string(Try.SharedBytes) +
                    " bytes of shared memory a block, or leaves a tile no "
                    "cells inside its halo; use fewer steps or other tiles");
  }
  return Last;
}

void FieldsPlan::dump(llvm::raw_ostream &OS) const {
  OS << "plan (several fields)\n";
  OS << "  target: " << Gpu.Name << "\n";
  if (!Origin.empty())
    OS << "  parameters: " << Origin << "\n";
  if (Run == Scheme::Naive) {
    OS << "  scheme: naive (one launch per statement and step)\n";
    OS << "  block:";
    for (size_t D = 0; D < Block.size(); ++D)
      OS << (D ? " x " : " ") << Block[D];
    OS << " (" << Threads << " threads, x along the innermost loop)\n";
    return;
  }
  OS << "  scheme: N.5D, " << BT << " step" << (BT == 1 ? "" : "s")
     << " a launch\n";
  OS << "  tile:";
  for (size_t D = 0; D < Tile.size(); ++D)
    OS << (D ? " x " : " ") << Tile[D];
  OS << " threads; " << StreamBlock << " rows a block\n";
  OS << "  halo below/above:";
  for (size_t D = 0; D < HaloLo.size(); ++D)
    OS << " " << HaloLo[D] << "/" << HaloHi[D];
  OS << "\n";
  OS << "  ring: " << RingRows << " rows; shared memory " << SharedBytes
     << " bytes a block; " << BarriersPerRow << " barrier"
     << (BarriersPerRow == 1 ? "" : "s") << " a row\n";
  auto src = [](const FieldSource &X) {
    return (X.Input ? "in" : "s") + std::to_string(X.Index);
  };
  for (size_t K = 0; K < Slots.size(); ++K)
    OS << "  slot " << K << ": field " << Slots[K].Field << " parity "
       << Slots[K].Parity << ", ends with "
       << (LastWriter[K] ? "s" + std::to_string(*LastWriter[K])
                         : std::string("its input"))
       << "\n";
  for (size_t G = 0; G < Stages.size(); ++G) {
    const FieldStage &X = Stages[G];
    OS << "  stage s" << G << ": " << (BarrierBefore[G] ? "barrier, " : "")
       << "statement " << X.Statement << " step "
       << X.Step << " -> slot " << X.Slot << ", lag " << X.Lag
       << ", else " << src(X.Prev) << ", reads";
    for (const FieldSource &R : X.Reads)
      OS << " " << src(R);
    OS << "\n";
  }
}
