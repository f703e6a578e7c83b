//===- an5d/Plan.h - Blocking parameters and kernel shapes ---------------===//
//
// Stage 4. From the analysis and the user's -bT/-bS/--sl: the block shape,
// the tile each degree of temporal blocking writes, the register ring and
// the shared-memory layout of the general N.5D kernel (AN5D section 4.1).
// Everything here is a compile-time constant of the generated code; grid
// sizes and the step count stay run-time values.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_PLAN_H
#define AN5D_PLAN_H

#include "an5d/Analysis.h"
#include "an5d/Stencil.h"
#include "an5d/Target.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace an5d {

/// How the time loop runs on the GPU (--scheme).
enum class Scheme {
  N5D,   // temporal blocking: bT steps per launch (AN5D)
  Naive, // one launch per step, one thread per cell, reads from global memory
};

/// Which N.5D kernel (--opt); AN5D section 4.1 and Table 1.
enum class KernelKind {
  Auto,  // only in PlanOptions: the best that applies
  None,  // general: every row of the stencil's reach in shared memory
  Star,  // diagonal-access free: only the current row in shared memory
  Assoc, // associative: partial sums, only the incoming row in shared memory
};
const char *schemeName(Scheme S);

const char *kernelKindName(KernelKind K);

/// Whether the generated file reads the update's wide double literals
/// from a __constant__ table (CodeGen's collectCoefficients) rather than
/// spelling them as literals: 2D stencils only. In 3D ptxas loaded the
/// table's entries early and ran out of registers at -O3 (H200: j3d27pt
/// 0.79x, box3d3r 0.85x); at -O1 it gained 0.96x-1.15x on the double 3D
/// boxes (log-2026-11-30-fetch.md), not enough to change the rule.
inline bool literalsInConstantTable(unsigned SpaceDims) {
  return SpaceDims == 2;
}

/// What the user asked for on the command line.
struct PlanOptions {
  Scheme Run = Scheme::N5D;  // --scheme
  KernelKind Kernel = KernelKind::Auto; // --opt
  /// The GPU planned and built for (--gpu): every limit the plan checks.
  Target Gpu = defaultTarget();
  /// __launch_bounds__ minimum blocks per SM (--min-blocks); 1 to
  /// Gpu.MaxBlocksPerSM, nullopt: not given.
  std::optional<int64_t> MinBlocks;
  /// Let nvcc vectorize shared-memory reads (--sm-vec).
  bool SmVec = false;
  /// Rows level 0 is read ahead of its use (--prefetch), 0 to
  /// MaxPrefetch; nullopt: the default, 2.
  std::optional<int64_t> Prefetch;
  /// Read level 0 ahead with asynchronous copies into shared memory
  /// (--async-prefetch, the default) instead of into registers.
  bool AsyncPrefetch = true;
  int64_t BT = 4;            // degree of temporal blocking (-bT)
  /// -bS as given: X[,Y], X along the innermost (contiguous) dimension.
  /// Empty: the default (128 in 2D, 32x32 in 3D).
  std::vector<int64_t> BS;
  int64_t StreamBlock = 128; // rows of the streaming dimension per block (--sl)
  /// Cells each thread computes along the outer blocked dimension
  /// (--cells).
  int64_t Cells = 1;
  /// 3D: level 0's rows just outside the block along j are copied by a few
  /// threads instead of computed by halo threads (--halo-rows).
  bool HaloRows = false;
  /// Adjacent cells each thread computes along the innermost dimension,
  /// loaded and stored as one vector (--kvec; VectorLayout::Lanes); 1: off.
  int64_t VecK = 1;
  /// ptxas optimization level the generated file asks to be built with
  /// (--ptxas-opt): 0 (auto, Plan::PtxasOpt) to 3; the driver checks it.
  int64_t PtxasOpt = 0;
  /// The region runs SPMD under mpirun, one slab per rank (--mpi).
  bool Mpi = false;
};

/// One kernel: advances Degree time steps per launch.
struct KernelPlan {
  int64_t Degree = 1;
  /// Output columns per block in each blocked dimension (array order,
  /// streaming dimension excluded): span(d) - Degree * (lo + hi).
  std::vector<int64_t> Tile;
  /// Rows of the streaming loop unrolled in the kernel body: the period of
  /// the register ring and of the shared buffer parity.
  int64_t Unroll = 1;
  /// Asynchronous read-ahead: shared slots per thread holding the rows in
  /// flight (a divisor of Unroll, at least Prefetch + 1); 0: registers.
  int64_t AheadSlots = 0;
  /// ScalarLayout::HaloRows: slots per halo thread (a divisor of Unroll): the rows
  /// in flight and those back to the one level 1 shares.
  int64_t HaloSlots = 0;
};

/// The naive scheme's shape: one thread per cell, one launch per step.
struct NaiveLayout {
  /// Threads per block along each dimension, array order (naiveBlock).
  std::vector<int64_t> Block;
};

/// The scalar N.5D kernels' layout (general, star, associative): one value
/// per cell and level, the rows other columns read in shared memory.
struct ScalarLayout {
  /// Shared-memory reads are plain loads nvcc may vectorize (--sm-vec).
  bool SmVec = false;
  /// 3D only (star and associative kernels, asynchronous read-ahead): the
  /// lo + hi rows of level 0 just outside the block along j come from one
  /// extra copy per row by the threads of the block's first lo + hi rows,
  /// so no thread is a halo thread of level 0 and each degree's tile is
  /// reach * (degree - 1) narrower than the block, not reach * degree.
  bool HaloRows = false;
  /// Streaming offsets whose row goes through shared memory (sorted):
  /// none: every offset of the reach; star: the rows read at another
  /// column; assoc: {0}, the incoming row. Empty: no shared memory at all.
  std::vector<int64_t> SharedRows;
  /// The largest KernelPlan::AheadSlots; 0: level 0 is read ahead into
  /// registers.
  int64_t AheadSlots = 0;
  /// The largest KernelPlan::HaloSlots.
  int64_t HaloSlots = 0;
};

/// The vector-cell kernel's layout (--kvec, 3D star stencils): each thread
/// computes Lanes adjacent cells along k (one 8- or 16-byte vector) in each
/// of its Cells rows along j. Level 0 arrives by vector copies into a ring
/// of Planes shared planes of SharedExtent[0] rows (BS[0] * Cells + lo_1 +
/// hi_1) x BS[1] + HaloLo + HaloHi vectors, read in place (every thread
/// computes: the halo is copied, not held by threads): the in-plane
/// neighbours of Lanes cells are a few vector loads, the rows above and
/// below come from a register ring. At bT > 1 levels 1 .. bT - 1 keep a
/// register ring each and pass the current row's vectors to the next level
/// through LevelPlanes more shared planes.
struct VectorLayout {
  /// Cells per vector (--kvec): 2 or 4.
  int64_t Lanes = 4;
  /// Shared planes of levels 1 .. bT - 1: LevelRing per level, or with
  /// hi_0 = 0 min(bT - 1, 2) that levels alternate between, one
  /// __syncthreads apart.
  int64_t LevelPlanes = 0;
  /// At bT > 1: hi_0 + 1 (0 when hi_0 = 0): level L of a row is written to
  /// a ring of this many planes when computed and read by level L + 1
  /// hi_0 rows later, so the row's first __syncthreads orders both.
  int64_t LevelRing = 0;
  /// Shared planes of level 0 in flight or in use (Prefetch + hi_0 + 2, so
  /// a plane's copy never lands while a thread may still read it).
  int64_t Planes = 0;
  /// Halo vectors per row along k, before and after the threads' ones in a
  /// shared plane (ceil(lo_2 / Lanes), ceil(hi_2 / Lanes)).
  int64_t HaloLo = 0, HaloHi = 0;
};

/// A plan: the fields every scheme has, the N.5D ones (BT, blocks, stream
/// block, ring, shared extent, kernels per degree), and the layout of its
/// kernel family.
struct Plan {
  Scheme Run = Scheme::N5D;
  /// PlanOptions::Gpu: the limits the plan fits, the build line's -arch.
  Target Gpu = defaultTarget();
  /// The kernel chosen (never Auto). Naive plans keep None.
  KernelKind Kernel = KernelKind::None;
  int64_t MinBlocks = 0;
  int64_t Prefetch = 2;
  unsigned Dims = 2;
  ElemType Elem = ElemType::Float;
  int64_t BT = 4;
  /// Threads per block in each blocked dimension, array order (j[, k]).
  std::vector<int64_t> BS;
  /// Cells per thread along blocked dimension 0 (array dimension 1), so a
  /// block spans BS[0] * Cells cells there; one __syncthreads per level
  /// serves them all (layout: adjacentCells()).
  int64_t Cells = 1;
  int64_t StreamBlock = 128;
  /// The kernel family and its layout: naive, scalar N.5D or vector cells.
  std::variant<NaiveLayout, ScalarLayout, VectorLayout> Family =
      ScalarLayout();
  /// Reach per dimension (streaming first), copied from the analysis.
  std::vector<int64_t> Lo, Hi;
  /// Rows of one level kept in registers: lo_0 + hi_0 + 1.
  int64_t Ring = 3;
  /// Padded shared plane: span(d) + lo_d + hi_d per blocked dimension.
  std::vector<int64_t> SharedExtent;
  int64_t SharedPlaneCells = 0; // product of SharedExtent
  /// Shared memory per block. Scalar: 2 buffers * SharedRows * plane *
  /// elem, then the read-ahead and halo slots; vector: every plane.
  int64_t SharedBytes = 0;
  int64_t Threads = 0;
  std::vector<KernelPlan> Kernels; // degree 1 .. BT
  int64_t WriteShift = 1;
  /// StencilAnalysis::TimeLevels: 3 when each level also reads level - 2
  /// at the cell itself.
  int64_t TimeLevels = 2;
  /// The planes the C loop cycles through (StencilAnalysis::Planes).
  int64_t Planes = 2;
  /// Planes of the grid on the device. Two levels: 2, the C loop's. Three:
  /// level l lives in plane l mod DevicePlanes, a multiple of Planes (so
  /// that each plane keeps the boundary of the user plane l mod Planes) of
  /// at least 3 for the naive scheme and bT + 2 for N.5D (so that a launch
  /// writes levels bT - 1 and bT into planes no block of it reads).
  int64_t DevicePlanes = 2;
  /// How the parameters were chosen (the model's prediction, or the
  /// command line), for the generated file's header; "" for naive plans.
  std::string Origin;
  /// ptxas optimization level of the build line (-Xptxas -O<n>; 3 is
  /// nvcc's default). Auto picks 1 for one cell per thread when the update's
  /// wide double literals, a register pair each, would fill more than 3/4
  /// of the registers a thread may use: ptxas -O3 hoists them out of the
  /// streaming loop and spills (double box3d2r..4r on the H200: spill-free
  /// and 1.02x-1.23x faster at -O1, other kernels 0.68x-1.02x;
  /// docs/performance.md).
  int64_t PtxasOpt = 3;
  /// Why PtxasOpt is not 3, for the header and the driver's note.
  std::string PtxasReason;
  /// Registers the update's wide double literals hold through the
  /// streaming loop: their register pairs where they would fill more than
  /// 3/4 of the budget and the build stays at -O3 (several cells per
  /// thread, or --ptxas-opt=3): ptxas keeps them and spills (box3d2r-4r
  /// double, 2 and 4 cells: 255 registers and 0.5-28 KB spilled on sm_90);
  /// below that at -O3, the pairs beyond 100 (ptxas still keeps some:
  /// box2d4r double, 71 literals, ran 30-73 registers over the estimate);
  /// else 0. The model adds them to its register estimate.
  int64_t LiteralRegisters = 0;
  /// Instructions per cell update that materialize the update's wide
  /// double literals: two moves for each where ptxas runs below -O3 (it
  /// then rebuilds them at every use) and no constant table holds them
  /// (literalsInConstantTable); else 0. box3d3r double at -O1: 1,026 SASS
  /// instructions per update, 343 of them DFMA. The model counts them.
  int64_t LiteralMoves = 0;
  /// Built with nvcc's --use_fast_math: the analysis ran under --fast-math
  /// (StencilAnalysis::FastMath, copied here for the build line).
  bool FastMath = false;
  /// -DAN5D_VERIFY's tolerance, relative to max(|ref|, 1): verifyTolerance
  /// of the type the update computes in (StencilAnalysis::FloatInDouble).
  double VerifyTolerance = 1e-4;
  /// The update of a double stencil computes partly in float (the header
  /// says why the tolerance is float's).
  bool FloatInDouble = false;
  /// Built with mpicxx as nvcc's host compiler; the region splits the grid
  /// over the MPI ranks (PlanOptions::Mpi).
  bool Mpi = false;

  /// Row index of streaming offset Off in the shared buffer, or -1.
  int64_t sharedRowOf(int64_t Off) const;
  /// 3D: a thread's cells are adjacent rows along j, so the neighbours
  /// they share are the same shared-memory reads (loaded once, hence plain
  /// loads: plainSharedLoads()). 2D: they lie BS[0] apart along the contiguous
  /// dimension (adjacent cells there would break coalescing and conflict in
  /// shared-memory banks).
  bool adjacentCells() const { return Dims == 3 && Cells > 1; }
  /// The family's layout; each asserts (throws) when the plan is of
  /// another family.
  const ScalarLayout &scalar() const { return std::get<ScalarLayout>(Family); }
  ScalarLayout &scalar() { return std::get<ScalarLayout>(Family); }
  const VectorLayout &vector() const { return std::get<VectorLayout>(Family); }
  VectorLayout &vector() { return std::get<VectorLayout>(Family); }
  bool naive() const { return std::holds_alternative<NaiveLayout>(Family); }
  bool vectorCells() const {
    return std::holds_alternative<VectorLayout>(Family);
  }
  /// VectorLayout::Lanes; 1 (one cell per value) for the other families.
  int64_t lanes() const {
    const VectorLayout *V = std::get_if<VectorLayout>(&Family);
    return V ? V->Lanes : 1;
  }
  /// ScalarLayout::AheadSlots; 0 for the other families.
  int64_t aheadSlots() const {
    const ScalarLayout *S = std::get_if<ScalarLayout>(&Family);
    return S ? S->AheadSlots : 0;
  }
  /// ScalarLayout::HaloRows; false for the other families.
  bool haloRows() const {
    const ScalarLayout *S = std::get_if<ScalarLayout>(&Family);
    return S && S->HaloRows;
  }
  /// Shared-memory reads are plain loads nvcc may merge or vectorize:
  /// --sm-vec, or adjacent cells (their shared reads then load once).
  bool plainSharedLoads() const {
    const ScalarLayout *S = std::get_if<ScalarLayout>(&Family);
    return (S && S->SmVec) || adjacentCells();
  }
  /// Cells a block spans along blocked dimension D (array dimension D + 1).
  int64_t span(unsigned D) const { return D == 0 ? BS[0] * Cells : BS[D]; }
  /// Levels whose halo threads a block of degree Deg holds along blocked
  /// dimension D: Deg, or Deg - 1 along j with HaloRows. The block's
  /// threads start haloDegrees * lo before its tile.
  int64_t haloDegrees(unsigned D, int64_t Deg) const {
    return Deg - (haloRows() && D == 0 ? 1 : 0);
  }
  /// Rows from the one level 0 loads back to the one level 1 shares in the
  /// same unrolled phase: the star kernel's level 1 lags hi_0 rows, the
  /// associative kernel's receives the row just loaded.
  int64_t levelOneLag() const {
    return Kernel == KernelKind::Star ? Hi[0] : 0;
  }
  /// Whether a cell outside the interior takes its value at levels 2 and
  /// up from its own register of level L - 2: the boundary value of the
  /// same row in the same plane (plane bnd_plane ^ (L % 2)), still in that
  /// level's register ring when lo_0 >= hi_0. Edge blocks then load
  /// boundary values at levels 0 and 1 only. The associative kernel keeps
  /// partial sums, not a ring of level values. With three time levels the
  /// boundary of level L is that of level L - 3.
  bool boundaryFromRegisters() const {
    return Kernel != KernelKind::Assoc && Lo[0] >= Hi[0] && TimeLevels == 2;
  }
  /// Threads that copy level 0's halo rows (HaloRows): lo + hi rows of
  /// the block's threads along j.
  int64_t haloThreads() const {
    return haloRows() ? (Lo[1] + Hi[1]) * BS[1] : 0;
  }
  void dump(llvm::raw_ostream &OS) const;
  /// dump() up to the build line's ptxas level.
  void dumpShape(llvm::raw_ostream &OS) const;
};

/// Most rows level 0 may be read ahead.
constexpr int64_t MaxPrefetch = 8;

/// Bytes of the vectors of --kvec: cp.async copies 4, 8 or 16 bytes.
constexpr int64_t MaxVectorBytes = 16;

/// Most cells per thread (--cells).
constexpr int64_t MaxCells = 8;

/// Why the plan stage refuses a set of options for a stencil: a typed
/// value the driver renders (with a caret at Where when it is valid), so
/// that no check is repeated outside this stage.
struct PlanError {
  enum class Kind {
    OutOfRange, // a number outside its range (Message gives the range)
    Count,      // -bS with more sizes than the stencil has blocked dimensions
    KernelRefused,  // --opt or --kvec needs a shape the stencil lacks (Where:
                    // the read or term that prevents it)
    Conflict,       // options that do not go together, or not in this dimension
    TargetLacks,    // the GPU (--gpu) lacks a feature the option needs
    BlockTooSmall,  // the halo of bT levels leaves a block no tile
    TooManyThreads, // more threads than a block, or --min-blocks an SM, holds
    SharedMemory,   // more shared memory per block than the GPU has
  };
  Kind What = Kind::OutOfRange;
  /// The option to change, as the user writes it: "--prefetch", "-bS".
  std::string Option;
  /// The sentence the driver prints after "error: ".
  std::string Message;
  /// The source of the read or term that makes a kernel inapplicable.
  clang::SourceRange Where;
};

/// The first option of Opts that makePlan rejects for a stencil of Dims
/// dimensions of Elem before looking at its reach (OutOfRange or Count), or
/// nullopt. The naive scheme reads only --min-blocks. makePlan calls it
/// first; the driver calls it once before planning, so that an option error
/// is reported as one even where the model's search would only find
/// nothing to rank. UserDims: the dimensions the program has, for messages
/// (a 1D stencil plans as 2D; 0: Dims).
std::optional<PlanError> checkOptions(const PlanOptions &Opts, unsigned Dims,
                                      ElemType Elem, unsigned UserDims = 0);

/// The block sizes of an N.5D plan of Opts, array order (as Plan::BS): -bS,
/// one size for both dimensions in 3D, or the default (128; 32x32).
/// checkOptions has accepted their count.
std::vector<int64_t> planBlockSizes(const PlanOptions &Opts, unsigned Dims);

/// Block sizes (array order, as Plan::BS) as the user writes them:
/// innermost dimension first, joined by Sep ("256", "32,16" or "32x16").
std::string userBlockSizes(const std::vector<int64_t> &BS,
                           const char *Sep = ",");

/// "bT 4, bS 32,8, hSN 64[, cells 2][, halo rows][, vector 4]": the parameters a
/// configuration is known by (--model, autotune candidates, --dump=model).
std::string parametersLabel(int64_t BT, const std::vector<int64_t> &BS,
                            int64_t StreamBlock, int64_t Cells, bool HaloRows,
                            int64_t VecK = 1);

/// Naive scheme: threads per block along each dimension, array order.
std::vector<int64_t> naiveBlock(unsigned Dims);

/// Why Kind cannot run this stencil (a KernelRefused error whose Where is
/// the read or term that prevents it), or nullopt when it can. Auto always
/// applies.
std::optional<PlanError>
kernelRefusal(const Stencil &S, const StencilAnalysis &A, KernelKind Kind);

/// Why --kvec VecK cannot run this 3D stencil (KernelRefused, Where: the
/// diagonal read), or nullopt when it can, when VecK is 1 or when the
/// stencil is not 3D (makePlan says why then).
std::optional<PlanError> vectorRefusal(const Stencil &S,
                                       const StencilAnalysis &A, int64_t VecK);

/// The kernel --opt=auto picks: star for diagonal-access-free stencils,
/// assoc for other associative ones, else the general kernel.
KernelKind autoKernel(const StencilAnalysis &A);

/// Registers per thread ptxas may use in a kernel of P: those of an SM of
/// P.Gpu shared by the __launch_bounds__ blocks (P.Threads, P.MinBlocks or
/// 1), in whole allocation units, at most P.Gpu.MaxRegistersPerThread.
int64_t registerBudget(const Plan &P);

/// The plan whose ptxas level one file of Plans (autotuned candidates
/// share one build) asks for: the first with the lowest level.
const Plan &buildLevelPlan(const std::vector<Plan> &Plans);

/// The nvcc flags a file of Plans is built with: "-O3 -arch=sm_XX" (their
/// Gpu's), with " --use_fast_math" under --fast-math and
/// " -Xptxas -O<n>" where buildLevelPlan asks for a level other than 3.
std::string nvccFlags(const std::vector<Plan> &Plans);

/// -DAN5D_VERIFY's tolerance, relative to max(|reference|, 1): 1e-4 for
/// float and 1e-10 for double (nvcc contracts products and sums into FMAs,
/// the C loop need not), ten times that under --fast-math.
double verifyTolerance(ElemType Elem, bool FastMath);

/// A plane of a field in an N.5D launch of several fields: an in-place
/// field's one, or one of a field's two planes, Parity steps after the
/// launch's first (global plane (t0 + Parity) % 2).
struct FieldSlot {
  unsigned Field = 0;
  unsigned Parity = 0;
};

/// Where a stage of an N.5D launch of several fields takes a value: the
/// slot's input rows (Input, Index a slot) or a stage's output (Index).
struct FieldSource {
  bool Input = true;
  unsigned Index = 0;
};

/// One statement at one step of an N.5D launch: it writes Slot's full
/// state (its statement's value inside the statement's cells, Prev's
/// elsewhere) Lag rows behind the row the launch loads.
struct FieldStage {
  unsigned Statement = 0;
  int64_t Step = 0;
  unsigned Slot = 0;
  int64_t Lag = 0;
  FieldSource Prev;
  /// Per read of the statement (Stencil::Reads[FirstRead ...]).
  std::vector<FieldSource> Reads;
};

/// The plan of a time step of several fields (StencilForm::Fields).
/// Naive: one launch per statement and step, a thread per cell of its
/// nest, reads from global memory. N5D (2D and 3D grids): BT steps per
/// launch; a block streams rows along the first dimension over a tile of
/// the others, every statement of every step a stage whose rows pass
/// through a ring in shared memory; tiles overlap by the stages' reach.
struct FieldsPlan {
  Target Gpu = defaultTarget();
  Scheme Run = Scheme::N5D;
  /// Naive: threads of a block along x (the innermost loop), y, z.
  std::vector<int64_t> Block;
  int64_t Threads = 0;
  /// N5D: steps per launch, the tile (threads along the dimensions after
  /// the first, innermost last; each covers the halo too), rows per
  /// block along the first dimension, and the ring's rows (a power of 2).
  int64_t BT = 0;
  std::vector<int64_t> Tile;
  int64_t StreamBlock = 0;
  int64_t RingRows = 0;
  /// Per grid dimension: cells a tile reaches below and above what it
  /// stores (dimension 0: rows of a stream block).
  std::vector<int64_t> HaloLo, HaloHi;
  std::vector<FieldSlot> Slots;
  std::vector<FieldStage> Stages;
  /// Per slot: the stage whose rows it ends the launch with (none: the
  /// input's, stored unchanged).
  std::vector<std::optional<unsigned>> LastWriter;
  int64_t MaxLag = 0;
  /// Per stage: whether a barrier goes before it in each row iteration
  /// (it reads another thread's element of a ring row stored since the
  /// last one, or overwrites one read so); with the one ending each
  /// iteration, BarriersPerRow in all.
  std::vector<bool> BarrierBefore;
  int64_t BarriersPerRow = 0;
  int64_t SharedBytes = 0;
  /// -DAN5D_VERIFY's tolerance, relative to max(|ref|, 1).
  double VerifyTolerance = 0;
  /// Where the scheme and parameters come from, for the header (the
  /// driver's words: the model's choice, the command line).
  std::string Origin;

  void dump(llvm::raw_ostream &OS) const;
};

/// What the user asked of a several-field plan; unset: the plan's choice.
struct FieldsOptions {
  /// Unset: N.5D (naive in 1D). The driver sets it from the model
  /// (rankFieldsConfigurations) unless the user did.
  std::optional<Scheme> Run;
  std::optional<int64_t> BT, StreamBlock;
  std::vector<int64_t> Tile;
};

/// Stage 4 for several fields. The error names what does not fit.
std::optional<PlanError> makeFieldsPlan(const Stencil &S,
                                        const FieldsAnalysis &A,
                                        const FieldsOptions &O,
                                        const Target &Gpu, FieldsPlan &P);

/// Entry point of stage 4: fills P and returns nullopt, or returns why the
/// options cannot be planned for this stencil and target.
std::optional<PlanError> makePlan(const Stencil &S, const StencilAnalysis &A,
                                  const PlanOptions &Opts, Plan &P);

} // namespace an5d

#endif
