//===- an5d/Model.h - Roofline performance model and parameter search ----===//
//
// Stage 6. AN5D section 5: for one plan on one GPU and grid size, count the
// threads of each class (out-of-bound, boundary, redundant, valid), the
// global and shared-memory traffic and the instructions a launch executes,
// and predict its time as the largest of the compute, issue, shared-memory
// and global-memory times divided by how well the SMs are used. The search
// ranks every configuration of the paper's parameter space (section 6.3)
// that plans, leaving out those predicted to spill registers.
// See docs/model.md for the formulas and their calibration.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_MODEL_H
#define AN5D_MODEL_H

#include "an5d/Analysis.h"
#include "an5d/Plan.h"
#include "an5d/Stencil.h"
#include "an5d/Target.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace an5d {

/// What the model knows of a GPU: its limits (the Target the plan checks)
/// and its speeds. Bandwidths are measured where we could
/// (shared/hardware.md, the paper's Table 4); the two calibrated figures
/// were fitted to H200 sweeps (docs/model.md).
struct DeviceSpec : Target {
  double ClockMHz = 0;
  double Fp32GFlops = 0, Fp64GFlops = 0; // FMA peaks
  double GlobalGBs = 0;                  // measured streaming copy
  double SharedGBs = 0;                  // SMs x bytes per clock x clock
  /// The host link, each way (pinned copies of 2 GiB): out of core, the
  /// generated program weighs it against the device memory.
  double HostLinkGBs = 0;
  /// Calibrated: issue slots per computed cell and level beyond the
  /// floating-point and shared-memory instructions (address arithmetic,
  /// boundary selects, the register ring, the barrier).
  double OverheadInstr = 0;
  /// Calibrated: the same for the 2D (and 1D) kernels in float, fitted
  /// apart (double keeps OverheadInstr until a double sweep refits it).
  double OverheadInstr2DFloat = 0;
  /// Calibrated: the same for the 3D scalar kernels in float.
  double OverheadInstr3DFloat = 0;
  /// Calibrated, 3D scalar kernels in float: issue slots per thread, row
  /// and level that a thread's cells share (its addresses, loop and ring
  /// bookkeeping): per cell they cost this / cells.
  double RowOverheadInstr3DFloat = 0;
  /// Calibrated: EdgeSlowdown for the 3D scalar kernels in float.
  double EdgeSlowdown3DFloat = 1;
  /// Calibrated: the same for the vector-cell kernel (--kvec), per cell:
  /// a thread's vector of cells shares one address, test and copy.
  double VectorOverheadInstr = 0;
  /// Calibrated: cycles per warp of the block that one row and level of a
  /// block waits at its barrier (the shared store-load chain, the skew of
  /// its warps); only other resident blocks can hide them.
  double LatencyCycles = 0;
  /// Calibrated, several fields (FieldsModel.cpp): issue slots per stage
  /// and thread-row beyond its update, reads and ring store (coordinates,
  /// the statement's bounds test, the select); per cell of a naive launch
  /// beyond its update and loads; the fraction of an N.5D launch's
  /// global-memory time that adds to its issue or shared time; the
  /// resident warps an SM needs to hide the stages' shared-memory latency
  /// (float); registers a thread (ptxas: 32-40 on the fdtd-2d sweep);
  /// the barrier wait, as a fraction of a launch's time, per warp of a
  /// block over the blocks of its SM (the blocks that can issue while one
  /// waits for its slowest warp).
  double FieldsStageInstr = 0, FieldsNaiveInstr = 0;
  double FieldsGlobalExposed = 0, FieldsWarps = 0, FieldsBarrierWait = 0;
  int64_t FieldsRegisters = 40;
  /// Calibrated: how much slower a block touching the boundary runs (its
  /// streaming loop tests rows or cells) than an interior block.
  double EdgeSlowdown = 1;
  /// Calibrated: the same for the 2D (and 1D) kernels in float.
  double EdgeSlowdown2DFloat = 1;
  /// Calibrated, 2D scalar kernels in float: the fraction of a
  /// launch's global-memory time that adds to its issue or shared time
  /// (the streaming loop's loads do not hide all of it).
  double GlobalExposed2DFloat = 0;
  /// Calibrated, 2D scalar kernels in float: the streaming loop's code
  /// (bytes) above which instruction fetch slows it, and the slowdown per
  /// multiple of it beyond (0: no code-size term).
  double CodeBudget2DFloat = 0, CodeSlowdown2DFloat = 0;
  /// Calibrated, associative kernels other than 2D float: the code (bytes)
  /// an SM keeps cached, and the bytes of code a cycle it fetches beyond. A
  /// longer streaming loop is fetched again by every block at each pass,
  /// once for all its warps (they move together between barriers), so few
  /// warps per block make instruction fetch the bound (0: no fetch bound).
  double CachedCodeBytes = 0, FetchBytesPerCycle = 0;
  std::string Source; // where the figures come from
};

/// The devices --gpu knows: one per targetTable() entry, in its order.
const std::vector<DeviceSpec> &deviceTable();
/// The device named Name (as findTarget), or null.
const DeviceSpec *findDevice(llvm::StringRef Name);

/// Floating-point operations of one cell update as nvcc emits them (no
/// --use_fast_math): products feeding a sum become FMAs; IEEE division and
/// sqrt are instruction sequences, counted in Instr.
struct OpMix {
  int64_t FMA = 0, MUL = 0, ADD = 0, DIV = 0, SQRT = 0, OTHER = 0;
  /// Float or double divisions by a constant the generated code computes
  /// without dividing (constantDivisor): a product, two FMAs and a range
  /// test.
  int64_t DIVC = 0;
  /// Float reciprocals 1.0f / x the generated code refines from the
  /// approximate one (refinedHelper): four FMAs and a range test.
  int64_t RCP = 0;
  /// FLOPs of one update (FMA counts 2).
  int64_t flops() const {
    return 2 * FMA + MUL + ADD + DIV + DIVC + RCP + SQRT + OTHER;
  }
  /// Issue slots of the floating-point work of one update for Elem, with
  /// nvcc's --use_fast_math where FastMath.
  double instructions(ElemType Elem, bool FastMath = false) const;
  /// AN5D section 5's ALU efficiency: FLOPs over twice the operations.
  double aluEfficiency() const;
};
OpMix countOps(const Expr &Update);

/// The grid the model predicts for: whole array extents per spatial
/// dimension (array order, boundary included), and the step count.
struct ProblemSize {
  std::vector<int64_t> Extent;
  int64_t Steps = 1000;
};
/// The paper's sizes (section 6.1): 16384^2 or 512^3, 1000 steps.
ProblemSize paperSize(unsigned Dims);
/// "16384x16384": the extents, outermost first.
std::string sizeText(const ProblemSize &Size);
/// Parses --size: "N" (every dimension N) or "NxM[xL]" (outermost first).
/// Returns false with Error on a malformed or mismatched size.
bool parseProblemSize(llvm::StringRef Text, unsigned Dims, ProblemSize &Out,
                      std::string &Error);

/// Thread-row counts of one launch of degree bT (a thread working on one
/// row of the streaming dimension at one level), by class.
struct ThreadClasses {
  double OutOfBound = 0; // columns outside the array: shared stores only
  double Boundary = 0;   // boundary cells: global loads, no computation
  double Redundant = 0;  // computed in the halo, never stored
  double Valid = 0;      // computed and stored
};

/// The model's account of one plan.
struct Prediction {
  int64_t BT = 0;
  std::vector<int64_t> BS; // array order, as Plan::BS
  int64_t StreamBlock = 0;
  int64_t Cells = 1;       // per thread, as Plan::Cells
  bool HaloRows = false;   // as ScalarLayout::HaloRows
  int64_t VecK = 1;        // VectorLayout::Lanes; 1: a scalar kernel
  KernelKind Kernel = KernelKind::None;
  ThreadClasses Threads;   // one launch of degree bT
  double GlobalBytes = 0;  // per launch
  double SharedBytes = 0;  // per launch, loads and stores
  double Instructions = 0; // per launch, issue slots of all threads
  double FlopSlots = 0;    // per launch, FP instructions (FMA = 1 slot)
  double TimeCompute = 0, TimeIssue = 0, TimeShared = 0, TimeGlobal = 0;
  double TimeFetch = 0;     // instruction fetch past the cached code
  double WaveEfficiency = 0, LatencyEfficiency = 0;
  double EdgeFraction = 0;  // blocks touching the boundary
  double CodeBytes = 0;     // estimated streaming loop of the deepest kernel
  int64_t Blocks = 0;       // per launch
  int64_t BlocksPerSM = 0;
  int64_t Registers = 0;    // estimated per thread
  int64_t RegisterCap = 0;  // what __launch_bounds__ leaves nvcc
  bool Spills = false;      // estimate above the cap
  std::string Limit;        // the bound that sets the time
  double SecondsPerStep = 0;
  double GFlops = 0;        // FLOPs of the update per cell x cells / time
  void dump(llvm::raw_ostream &OS) const;
};

/// Registers per thread the generated kernel of P needs (section 6.3's
/// bound refined against ptxas for an5dc's kernels, docs/model.md); above
/// the device's limit where it would spill.
int64_t estimateRegisters(const Plan &P);

/// Section 5's model of one plan, planned for D (P.Gpu).
Prediction predict(const Stencil &S, const StencilAnalysis &A, const Plan &P,
                   const ProblemSize &Size, const DeviceSpec &D);

/// Parameters the user fixed on the command line (nullopt: free).
struct SearchConstraints {
  std::optional<int64_t> BT;
  std::optional<std::vector<int64_t>> BS; // as PlanOptions::BS (user order)
  std::optional<int64_t> StreamBlock;
  std::optional<int64_t> Cells;
  std::optional<bool> HaloRows;
  /// --kvec: only vector-cell configurations of these lanes (1: only
  /// scalar ones); unset: both where the vector-cell kernel applies.
  std::optional<int64_t> VecK;
};

/// Every configuration of the search space that plans under Base (whose
/// Gpu is D) and C, best predicted first; those predicted to spill come last. 2D: bT 1..16,
/// bS 128/256/512, hSN 128/256/512, 1 or 2 cells. 3D: bT 1..8, bS
/// 16x16/32x8/32x16/32x32/64x16, hSN 32/64/128/256, 1, 2 or 4 cells, with
/// and without halo rows; where the vector-cell kernel applies (3D stars,
/// vectorRefusal), also 16-byte vectors at bT 1..3, bS 32x4/32x8/32x16/
/// 64x4/64x8, hSN 32/64, 1 to 4 cells. Deterministic.
std::vector<Prediction> rankConfigurations(const Stencil &S,
                                           const StencilAnalysis &A,
                                           const PlanOptions &Base,
                                           const SearchConstraints &C,
                                           const ProblemSize &Size,
                                           const DeviceSpec &D);

/// The plan options of a ranked configuration.
PlanOptions optionsOf(const Prediction &P, const PlanOptions &Base);

/// The `an5dc --model` table.
void printRanking(llvm::raw_ostream &OS, const Stencil &S,
                  const StencilAnalysis &A, const std::vector<Prediction> &R,
                  const ProblemSize &Size, const DeviceSpec &D, size_t Top);

/// "bT 4, bS 256, hSN 128" for a prediction (bS as the user writes it),
/// then ", cells 2" where a thread computes several cells.
std::string configLabel(const Prediction &P);

/// The model's account of one plan of several fields (FieldsPlan): per
/// launch (naive: per step, all its launches).
struct FieldsPrediction {
  Scheme Run = Scheme::N5D;
  int64_t BT = 0;             // N5D: steps a launch
  std::vector<int64_t> Tile;  // as FieldsPlan::Tile
  int64_t StreamBlock = 0;
  int64_t Blocks = 0;
  int64_t BlocksPerSM = 0;
  double GlobalBytes = 0, SharedBytes = 0, Instructions = 0;
  double TimeIssue = 0, TimeShared = 0, TimeGlobal = 0;
  double WaveEfficiency = 0, LatencyEfficiency = 0, BarrierEfficiency = 0;
  std::string Limit; // the bound that sets the time
  double SecondsPerStep = 0;
  double GFlops = 0; // every statement's FLOPs over its cells / time
  void dump(llvm::raw_ostream &OS) const;
};

/// The model of P (planned for D) on a grid of Size (the fields' extents).
FieldsPrediction predictFields(const Stencil &S, const FieldsAnalysis &A,
                               const FieldsPlan &P, const ProblemSize &Size,
                               const DeviceSpec &D);

/// The naive scheme and every N.5D configuration of the search space that
/// plans and keeps what Fixed sets, best predicted first. 2D: bT 1..10,
/// tiles 64/128/256, 128/256/512 rows a block; 3D: bT 1..6, tiles 8x32,
/// 16x16, 16x32, 32x32, 32/64/128 rows; 1D: the naive scheme only. In
/// 3D the naive scheme ranks first (measured faster than every N.5D
/// configuration tried). Deterministic.
std::vector<FieldsPrediction>
rankFieldsConfigurations(const Stencil &S, const FieldsAnalysis &A,
                         const FieldsOptions &Fixed, const ProblemSize &Size,
                         const DeviceSpec &D);

/// The plan options of a ranked configuration.
FieldsOptions fieldsOptionsOf(const FieldsPrediction &P);

/// "bT 6, bS 128, hSN 256", or "naive".
std::string fieldsConfigLabel(const FieldsPrediction &P);

/// The `an5dc --model` table for several fields.
void printFieldsRanking(llvm::raw_ostream &OS, const Stencil &S,
                        const std::vector<FieldsPrediction> &R,
                        const ProblemSize &Size, const DeviceSpec &D,
                        size_t Top);

} // namespace an5d

#endif
