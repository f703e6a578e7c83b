//===- Emitter.h - The CUDA emitter's shared state (private) -------------===//
//
// One Emitter writes one file through one CodeWriter. The file layout and
// host code live in CudaEmitter.cpp, the N.5D kernels (general, star,
// associative) in N5DKernels.cpp, the naive scheme in NaiveKernel.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_LIB_CODEGEN_EMITTER_H
#define AN5D_LIB_CODEGEN_EMITTER_H

#include "an5d/CodeGen.h"
#include "an5d/KernelIR.h"

#include <cassert>
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <set>
#include <vector>

namespace an5d {
namespace codegen {

inline std::string str(int64_t V) { return std::to_string(V); }

/// A symbol of an affine bound widened to 64 bits (AffineExpr::str's
/// rename, for bounds printed in the user's program).
std::string wide(const std::string &Name);

/// The kernels' dynamic shared array. Its extern declaration has external
/// linkage even inside a kernel, so it must not meet a global of the
/// user's program later in the file (nvcc: "declaration is incompatible"):
/// an an5d_ name, like every other name of the generated code at file scope.
inline const char *const DynamicShared = "an5d_smem";


/// "x + 3", "x - 2", "x" for a variable plus a constant.
inline std::string plus(const std::string &X, int64_t C) {
  if (C == 0)
    return X;
  return X + (C > 0 ? " + " : " - ") + str(C < 0 ? -C : C);
}

/// Name of a streaming offset in register parameter names: m2, m1, 0, p1.
inline std::string offsetName(int64_t O) {
  if (O < 0)
    return "m" + str(-O);
  if (O > 0)
    return "p" + str(O);
  return "0";
}

inline int64_t mod(int64_t A, int64_t M) { return ((A % M) + M) % M; }

/// Streaming offsets with at least one term, ascending: the order in which
/// a partial sum receives its rows.
inline std::vector<int64_t> termPlanes(const AssociativeForm &F) {
  std::vector<int64_t> Planes;
  for (const AssociativeForm::Term &T : F.Terms)
    if (T.ReadsArray &&
        std::find(Planes.begin(), Planes.end(), T.Plane) == Planes.end())
      Planes.push_back(T.Plane);
  std::sort(Planes.begin(), Planes.end());
  return Planes;
}

/// The names the generated code gives the user's identifiers: the spatial
/// iterators (outermost first) and the scalars (by their name in the
/// source). chooseUserNames picks them; every Emitter of a file reads them.
struct UserNames {
  std::vector<std::string> Iter;
  std::map<std::string, std::string> Scalar;
  /// The names that differ from the source's, as (source, generated).
  std::vector<std::pair<std::string, std::string>> Renamed;
};

/// The user's names, each kept unless it, or a name the generated code
/// builds from it, equals an identifier the generated code (of these
/// plans) declares or uses, or another user name's; then prefixed (it_,
/// scalar_) until none does. UserNames.cpp says how.
UserNames chooseUserNames(const Stencil &S, const StencilAnalysis &A,
                          const std::vector<Plan> &Plans,
                          const SourceText &Src);

/// The file's includes and macros that depend on no plan, then the host
/// runtime (with --mpi its MPI part; not with OwnCodeOnly). Pipeline:
/// kernels use cuda_pipeline.h's asynchronous copies.
void writePreludeCommon(CodeWriter &W, const SourceText &Src,
                        const Target &Gpu, bool Mpi, bool Pipeline,
                        bool OwnCodeOnly);
/// The user's file up to the scop region (after a marker line and
/// '#line 1'); returns the line the region starts on.
unsigned writeTextBeforeScop(CodeWriter &W, const SourceText &Src);
/// The user's file after the region, its line numbers restored.
void writeTextAfterScop(CodeWriter &W, const SourceText &Src);
/// After the region: pointers In and Out, swapped once per iteration of a
/// time loop that ran when Runs holds, Odd when it ran an odd number of
/// times, end as the C loop leaves them; Temp (the swap's temporary, ""
/// when it does not outlive the loop) holds the last write pointer.
void writePointerSwapBack(const std::function<void(const std::string &)> &Line,
                          const std::string &In, const std::string &Out,
                          const std::string &Temp, const std::string &Runs,
                          const std::string &Odd);
/// --autotune: 'static long an5d_steps_of(int candidate, <Params>)', a
/// switch returning an5d_config_<c>::an5d_steps(<Args>) for each of Count
/// candidates.
void writeCandidateDispatch(CodeWriter &W, size_t Count,
                            const std::string &Params, const std::string &Args);
/// The names of the -D macros, in order, once each; an5dc's own AN5D_
/// macros (AN5D_SM_VEC, AN5D_VERIFY) stay: the generated code tests them.
std::vector<std::string> userMacroNames(const SourceText &Src);

class Emitter {
public:
  /// Writes Plans[Index]'s code; into Shared when given (a candidate of an
  /// autotuned file), else into a writer of its own.
  /// Kernels collects every kernel body (verified) and the verifier's
  /// findings.
  /// Names gives the user's identifiers their names in the output.
  Emitter(const Stencil &S, const StencilAnalysis &A,
          const std::vector<Plan> &Plans, size_t Index, const SourceText &Src,
          GeneratedKernels &Kernels, const UserNames &Names,
          CodeWriter *Shared = nullptr)
      : S(S), A(A), Plans(Plans), P(Plans[Index]), Src(Src), Names(Names),
        N(S.numSpaceDims()), Elem(elemTypeName(S.Elem)),
        Coefs(collectCoefficients(S)), W(Shared ? *Shared : Own),
        Kernels(Kernels) {
    assert(Names.Iter.size() == N && "a name per spatial iterator");
    It = Names.Iter;
    ScalarName = Names.Scalar;
    for (unsigned D = 0; D < N; ++D) {
      Ext.push_back("ext_" + It[D]);
      First.push_back(It[D] + "_first");
      Last.push_back(It[D] + "_last");
    }
    Fn = sanitize(S.Function);
  }

  std::string run();
  /// The identifiers of the code the emitter generates itself (run() without
  /// the host runtime's text, which only defines an5d_ names, and without the
  /// user's program), as UserNames.cpp reads them.
  std::set<std::string> generatedCode();

private:
  // Pieces of the file, in order.
  void header();
  /// Header lines of an autotuned file: the candidates and their origin.
  void candidateList();
  void prelude();
  /// The prelude's includes and macros that do not depend on the plan.
  void preludeCommon();
  /// The compile-time parameters of the plan (#defines, recorded in
  /// ParamMacros so an autotuned file can #undef them after the plan).
  void parameters();
  void smWrapper();
  /// The N.5D plan's device helpers, kernels, launch and steps functions.
  void n5dDeviceCode();
  /// One candidate of an autotuned file: its parameters, device code and
  /// an5d_steps in namespace an5d_config_<index>.
  void candidateSection(size_t Index);
  /// an5d_steps: runs `steps` time steps on the device planes.
  void stepsFunction();
  /// The autotuner: times the candidates, keeps the fastest in a cache.
  void tuner();
  /// an5d_boundary_inline, and an5d_boundary, its out-of-line copy.
  void boundaryHelper();
  /// The exact helpers of the update's divisions by a constant, float
  /// reciprocals and square roots
  /// (recorded in Helpers).
  void divisionHelpers();
  /// The __constant__ table of the update's double coefficients.
  void coefficientTable() {
    writeCoefficientTable(W, Coefs);
    coefArrayStruct();
  }

  // Coefficient arrays (CoefArrays.cpp): read-only arrays the update reads
  // at the cell's coordinates; they travel with the scalars as one struct.
  /// The update reads coefficient arrays or the time step: the struct
  /// an5d_coef_arrays (with the launch's step) travels with the scalars.
  bool passesCoefStruct() const {
    return !S.CoefArrays.empty() || S.ReadsTime;
  }
  /// The time step as written at level Level of the current launch (0: the
  /// naive kernel's one step), a device expression.
  std::string timeAt(int64_t Level) const;
  /// struct an5d_coef_arrays: each array's device copy and row lengths.
  void coefArrayStruct();
  /// The header's line naming the coefficient arrays.
  void coefHeaderLine();
  /// ", an5d_coef_arrays coef_arrays" where the update reads such arrays.
  std::string coefParams() const;
  /// Grid dimensions (0 .. N-1) whose coordinate some coefficient read uses.
  std::vector<unsigned> coefDims() const;
  /// The distinct coefficient elements a cell reads (reads spelled alike
  /// share one): the first read of each, and, for one whose element moves
  /// with the streaming row, its delay line and the line's slot it takes
  /// at level 1 (Line -1: the same element in every row).
  struct CoefValue {
    unsigned Read = 0;
    int Line = -1;
    int64_t Slot = 0;
    bool PerStep = false; // indexed by the time step: loaded per level
  };
  /// Elements of one array read at several rows of one column (c[i - 1][j],
  /// c[i + 1][j]) stream through one delay line: each row is loaded once
  /// per thread, at row i - hi + Ahead, and moves one slot per row.
  struct CoefLine {
    unsigned Read = 0;   // a read of the line, its row subscript to Ahead
    int64_t Ahead = 0;   // the largest row offset of the line's reads
    int64_t Behind = 0;  // the smallest
  };
  std::vector<CoefValue> coefValues() const;
  std::vector<CoefLine> coefLines() const;
  /// The value a coefficient read is (index into coefValues()).
  unsigned coefValueOf(unsigned Read) const;
  /// Read R's element as CUDA at the coordinates Coord(g), its subscript
  /// along the streaming iterator moved to RowOffset when given.
  std::string coefLoad(unsigned R,
                       const std::function<std::string(unsigned)> &Coord,
                       std::optional<int64_t> RowOffset = std::nullopt,
                       const std::string &Time = "") const;
  /// an5d_update's parameters for them: ", float coef_v0, double coef_v1".
  std::string coefValueParams() const;
  /// Their arguments at level Level for the current cell: a row-dependent
  /// value from its delay line, loaded (Level - 1) * hi rows earlier.
  std::vector<std::string> coefValueArgs(int64_t Level) const;
  /// Kernel K's setup for the current cell: its clamped columns, the
  /// row-invariant values loaded once, the delay lines of the others.
  void coefSetup(const KernelPlan &K);
  /// Each unrolled row: the delay lines move one row down and take the
  /// values of level 1's row (each element loaded once per thread and row,
  /// not once per level).
  void coefRowLoads(const KernelPlan &K);
  /// The C type of read Read's array elements.
  std::string coefType(unsigned Read) const;
  /// Run function: the device copies of the coefficient arrays.
  void coefUpload();
  /// The user program's arguments for them: each array and its extents.
  std::string coefRunArgs() const;
  /// The run function's parameters for them.
  std::string coefRunParams() const;
  void updateFunction();
  /// The two kernels of degree K.Degree: interior tiles, then edge tiles.
  void kernel(const KernelPlan &K);
  /// One of them, as EdgeTiles says.
  void kernelOf(const KernelPlan &K);
  /// block_<it>: the tile this block computes, from blockIdx and the
  /// host's tile ranges (an5d_tiles).
  void tileOfBlock();
  /// "an5d_kernel_deg4" or "an5d_edge_kernel_deg4".
  static std::string kernelName(int64_t Degree, bool Edge) {
    return std::string(Edge ? "an5d_edge_kernel_deg" : "an5d_kernel_deg") +
           str(Degree);
  }
  /// The N.5D plan's kernels: per degree the interior and edge tiles'
  /// (kernelName), or an5d_kernel_vec for vector cells.
  std::vector<std::string> kernelNames() const;
  /// struct an5d_tiles (the runtime's an5d_tile_range fills it).
  void tileRanges();
  /// "i [-1, +1] j [-2, +2]": the reach per dimension, for headers.
  std::string reachText() const;
  void naiveHeader();
  void headerFooter();
  void naiveParameters();
  void minBlocksDefine();
  std::string kernelDescription() const;
  void naiveKernel();
  void naiveLaunchFunction();
  // The vector-cell kernel (VectorLayout, VecKernel.cpp).
  void vecHeader();
  void vecParameters();
  /// Its device code, launch and steps functions.
  void vecDeviceCode();
  void vecUpdateFunction();
  /// an5d_copy_row: one row of level 0 into a shared plane.
  void vecCopyFunction();
  /// an5d_keep: levels 1 .. bT - 1 of cells outside the interior.
  void vecKeepFunction();
  /// an5d_kernel_vec (degree 1) or an5d_kernel_vec_bt (degree bT).
  void vecKernel(const KernelPlan &K);
  /// One time step of the cells of a box, one thread a cell
  /// (an5d_kernel_strip), and its launch (an5d_launch_strip): the strips
  /// that degree-1 launches leave past their whole tiles.
  void vecStripKernel();
  void vecStripLaunchFunction();
  std::string vecKernelName(int64_t Degree) const;
  /// AN5D_TILE_<Dim> or AN5D_BT_TILE_<Dim>: kernel K's tile.
  std::string vecTileMacro(const KernelPlan &K, const std::string &Dim) const;
  /// Unrolled row Q of kernel K's streaming loop: the copy, level 0's ring
  /// slot, then each level (vecLevel).
  void vecRow(int64_t Q, const KernelPlan &K);
  /// Level Level of the row Level * hi_0 behind the newest one: into its
  /// ring slot (with vecKeep) or, at the kernel's degree, stored.
  void vecLevel(int64_t Q, const KernelPlan &K, int64_t Level);
  /// The thread's first vector in slot Slot (an expression) of level
  /// Level's shared planes (VectorLayout::LevelRing).
  std::string levelPlane(int64_t Level, const std::string &Slot) const;
  /// Index of the vector Row rows below (above, if negative) and at lane
  /// Lane, from a thread's first vector in a shared plane.
  static std::string vecIndex(int64_t Row, const std::string &Lane);
  /// Cells of level Level in ring slot Slot (row Row) outside the interior
  /// keep their boundary value.
  void vecKeep(int64_t Level, int64_t Slot, const std::string &Row);
  /// The stores of row Row (an expression) of vectors Value[_cC] into
  /// plane Out, inside kernel K's tile (RowTest: a further condition).
  void vecStores(const KernelPlan &K, const std::string &Row,
                 const std::string &Value, const std::string &Out,
                 const std::string &RowTest);
  /// Three time levels: an5d_load_vector, level 1's reads of the older
  /// plane (whole vectors, clamped into the array).
  void vecLoadFunction();
  /// Three time levels: the older plane's vector of row Row for cell row
  /// Ci (the call of an5d_load_vector).
  std::string vecOlderLoad(const std::string &Row, int64_t Ci) const;
  /// Three time levels: level 1 of the row of unrolled phase Q reads the
  /// older plane from register older_<slot>[_cC], loaded VecOlderAhead
  /// phases before (a ring of P.Ring slots).
  std::string vecOlderName(int64_t Slot, int64_t Ci) const;
  int64_t vecOlderAhead() const { return P.Ring > 1 ? 1 : 0; }
  /// Three time levels: the plane whose boundary level Level keeps.
  std::string vecKeepPlane(int64_t Level) const;
  /// an5d_steps for vector cells at three time levels.
  void vecThreeLevelSteps();
  /// The start of an5d_steps at three time levels (its comment on levels
  /// and planes, keepsPlanes); returns the device plane of the level that
  /// step `step` reads last.
  std::string threeLevelStepsHead();
  /// The call of an5d_copy_row that copies row Row into plane Dst.
  std::string vecCopyCall(const std::string &Dst, const std::string &Row) const;
  /// Level 0's shared plane of row Row (relative to the streaming
  /// counter; the planes turn with plane_in).
  Operand inputPlane(int64_t Row) const;
  /// Level Level's shared plane at slot level_in + Part (turning with
  /// the counter), holding row Row.
  Operand levelRingPlane(int64_t Level, int64_t Part, int64_t Row) const;
  void vecLaunchFunction(const KernelPlan &K);
  /// an5d_steps for vector cells: degree-bT launches, then single steps.
  void vecStepsFunction();
  /// float4, float2 or double2.
  std::string vecType() const;
  /// The ring register of level Level, slot Slot and cell (row) Cell.
  std::string ringName(int64_t Level, int64_t Slot, int64_t Cell) const;
  /// One launch per step (naive scheme): an5d_steps calls its launch
  /// function, no degree schedule (vector cells: vecStepsFunction).
  bool oneStepLaunches() const { return P.Run == Scheme::Naive; }
  /// an5d_steps may end with the data in the plane the C loop does not hold
  /// it in (AN5D_END_OPEN): the N.5D launches of the scalar kernels. Naive
  /// and vector-cell runs keep both planes as the C loop has them.
  bool swapsPlanes() const {
    return !oneStepLaunches() && !P.vectorCells() && !threeLevels();
  }
  /// In an5d_steps of the runs that keep both planes as the C loop has
  /// them: `end` unused, *swapped set to 0.
  void keepsPlanes();
  /// In a vector-cell an5d_steps making `Launches` launches: the part they
  /// take (an5d_launch_part), none of them returning 0.
  void launchPartOrReturn(const std::string &Launches);
  void launchFunction();
  /// an5d_steps' body for three time levels (after its head): launches of
  /// the schedule, each from the plane of its first input level.
  void threeLevelSteps();
  /// The run function's body for three time levels after device_bytes: the
  /// planes to the device, the steps, the last three levels back.
  void threeLevelRun();
  /// The opening of an5d_steps: comment, signature, the shared-memory
  /// opt-in; the caller closes it.
  void stepsFunctionHead();
  /// "const long plane = <cells of one plane>;".
  void planeSizeLine();
  /// cudaFuncSetAttribute for every kernel when AN5D_SM_BYTES > 48 KiB.
  void sharedMemoryOptIn();
  /// The run function's choice between slabs on several GPUs
  /// (runtime/an5d_runtime_slabs.h), the in-memory and the out-of-core path
  /// (runtime/an5d_runtime_ooc.h).
  void outOfCore();
  void copyPlanes(const std::string &Rows, bool ToDevice);
  /// The rows of the innermost extent in one plane: "(size_t)ext_i * ext_j".
  std::string deviceRows() const;
  /// Lanes of the widest vector of the vector-cell plans (0: none). With
  /// any, the in-memory run leads each device row (an5d_row_lead) so that
  /// the interior starts a 32-byte sector, itself a whole number of vectors.
  int64_t rowLeadLanes() const;
  /// The device grid's first cell as the host copies see it: `grid`, or
  /// `grid + lead` with a row lead.
  std::string deviceBase() const;
  void runFunction();
  void userProgram();
  /// The user program's AN5D_VERIFY_SAMPLE code: the bands and their CPU
  /// update before the run (Before), the comparison after it.
  void sampleReference(const std::function<void(const std::string &)> &Line,
                       bool Before);
  void copyBackEpilogue(const std::function<void(const std::string &)> &Line,
                        const std::string &Base0, const std::string &Cells);
  void pointerSwapEpilogue(
      const std::function<void(const std::string &)> &Line);
  std::string referenceNest() const;

  // Kernel pieces.
  void kernelSetup(const KernelPlan &K);
  void levelStep(const KernelPlan &K, int64_t Phase, int64_t Level);
  void assocStep(const KernelPlan &K, int64_t Phase, int64_t Level);
  /// The streaming loop of a kernel: unrolled rows, each loading level 0
  /// and computing levels 1..D, with the boundary tests Tests asks for.
  void streamLoop(const KernelPlan &K);
  /// True for a block the interior tiles' kernel takes: every column it
  /// computes past level 0 is interior, and level 0's columns lie in the
  /// interior or in the ring of boundary columns that ringColumns allows.
  std::string blockColumnsTest(const KernelPlan &K) const;
  /// The boundary columns beside the interior along Dm (1 .. N-1), before
  /// it (Lo) or after it (!Lo), where a tile of the interior tiles' kernel
  /// may read level 0: up to the reach, inside the array, and only while
  /// in_plane is bnd_plane (level 0's boundary values are then in_plane's).
  /// Levels >= 1 of those columns are never stored: they lie in the halo.
  std::string ringColumns(unsigned Dm, bool Lo) const;
  /// Level 0's columns along dimension Dm (1 .. N-1) a block reads: its
  /// threads' cells and, with HaloRows, the rows copied beside them.
  int64_t loadedColumns(unsigned Dm) const {
    return P.span(Dm - 1) + (P.haloRows() && Dm == 1 ? P.Lo[1] + P.Hi[1] : 0);
  }
  /// True for a block all of whose streamed rows (head and read-ahead rows
  /// included) are interior.
  std::string blockRowsTest(const KernelPlan &K) const;
  void generalUpdateFunction();
  void assocFunctions();
  /// The __launch_bounds__ of the kernel of degree Degree (the naive
  /// kernel passes P.BT).
  std::string launchBounds(int64_t Degree) const;
  /// The interior kernels of degrees below bT ask for one block an SM
  /// (without --min-blocks; launchBounds says why).
  bool tailKernelsOneBlock() const { return P.BT > 1 && !P.MinBlocks; }
  /// Level 0 of row Row: the input plane inside the interior, else the
  /// boundary value.
  std::string levelZeroLoad(const std::string &Row,
                            const std::string &Cell) const;
  /// Index of the cell at offset O (spatial, streaming first; O[0] picks
  /// the row of the buffer) relative to `col` in a shared buffer.
  std::string sharedIndex(int64_t Row, const std::vector<int64_t> &O,
                          const std::string &Col = "col") const;
  /// Offsets of the reads (in read order, each once) that another cell of
  /// the same thread may hold: same column along k, another row along j
  /// fewer than AN5D_CELLS away (3D, adjacent cells). an5d_update takes
  /// them as parameters, so each caller passes a register or a shared read.
  std::vector<std::vector<int64_t>> cellNeighbourReads() const;
  /// The same in the plane of the incoming row (associative kernel): the
  /// in-plane offsets (streaming offset 0) of those reads, each once.
  std::vector<std::vector<int64_t>> cellNeighbourPlane() const;
  /// an5d_update's parameter for such a read: nb_<i>_<j>_<k>.
  std::string cellNeighbourName(const std::vector<int64_t> &O) const;
  /// The argument for such a neighbour in the call of the current cell:
  /// the value of the thread's cell there (its register of that row, or
  /// in the associative kernel its incoming value), else its shared-memory
  /// read in Buf.
  std::string cellNeighbourArg(const std::vector<int64_t> &O,
                               const std::string &Buf, int64_t Level,
                               int64_t Phase);
  /// Starts the asynchronous copies of level 0 of row RowOff (relative to
  /// the streaming counter; RowsBack rows before in_next's; unrolled phase
  /// Phase, which picks the slots) into the read-ahead slots of every cell
  /// and halo cell, or stores the boundary value there, and commits them
  /// as one group.
  void aheadCopy(const KernelPlan &K, int64_t RowOff, int64_t RowsBack,
                 int64_t Phase);
  /// HaloRows, before the __syncthreads of level 1 in unrolled phase Phase:
  /// the halo threads store their copy of the row level 1 shares into
  /// buffer Buf.
  void haloStore(const KernelPlan &K, const std::string &Buf, int64_t Phase);
  /// HaloRows: which threads copy a halo cell, its coordinates, shared slot
  /// and distance from the thread's own column.
  void haloSetup();
  std::string aheadSlot(int64_t Slot) const {
    if (Cell == HaloCell)
      return Slot ? "halo_rows[" + str(Slot) + " * AN5D_HALO_THREADS]"
                  : std::string("halo_rows[0]");
    int64_t Index = Slot * P.Cells + Cell;
    return Index ? "ahead_rows[" + str(Index) + " * AN5D_THREADS]"
                 : std::string("ahead_rows[0]");
  }
  /// The suffix of Cell's variables: cell 0 keeps the plain names
  /// (reg_0_1, cell_interior, j), cell c adds _c<c> (reg_0_1_c2).
  std::string cellSuffix() const {
    if (Cell == HaloCell)
      return "_halo";
    return Cell ? "_c" + str(Cell) : "";
  }
  /// Cell's level-0 input in the row RowsBack rows before the one in_next
  /// points at: a dereference, or the address (Address).
  std::string inCell(int64_t RowsBack, bool Address) const;
  /// Where Cell's last level is stored: *out_next or out_next[...];
  /// Back levels before the last (three levels: out1_next, out2_next).
  std::string outCell(int64_t Back = 0) const;
  /// Cell's slot in a padded shared plane: col, or col plus its distance.
  std::string colOf() const;
  /// Cell's coordinate in array dimension Dm (1 .. N-1).
  std::string cellIt(unsigned Dm) const {
    return Dm == 1 ? It[1] + cellSuffix() : It[Dm];
  }
  /// Distance in global memory from one cell of a thread to the next.
  std::string cellStride() const { return N == 2 ? "AN5D_BLOCK_X" : Ext[2]; }
  bool adjacentCells() const { return P.adjacentCells(); }
  /// Runs Body for each of the thread's cells from First on, with Cell
  /// set, then leaves Cell at 0 (the cell code outside these loops means).
  template <typename F> void eachCell(const F &Body, int64_t First = 0) {
    for (Cell = First; Cell < P.Cells; ++Cell)
      Body();
    Cell = 0;
  }
  /// Runs Body with Cell set to the halo cell (ScalarLayout::HaloRows): the cell
  /// of level 0 this thread copies outside the block, if it is one of the
  /// first lo + hi rows of threads (halo_thread).
  template <typename F> void inHalo(const F &Body) {
    Cell = HaloCell;
    Body();
    Cell = 0;
  }
  /// The name of Cell's result at the level being written.
  std::string valueName() const { return "value" + cellSuffix(); }
  /// A cell's result at the level being written: its name or expression,
  /// and what that reads.
  struct CellValue {
    std::string Text;
    std::vector<Operand> Reads;
  };
  /// After every cell's value of a level (Values[c]: cell c's): the stores
  /// of the last level (after all computations, so that no global store
  /// separates two cells' shared-memory reads) or the next level's inputs.
  void finishCells(int64_t D, int64_t Level, int64_t Phase,
                   const std::string &Row,
                   const std::vector<CellValue> &Values);
  /// an5d_boundary(...) for this thread's cell of row Row in plane
  /// PlaneIndex: the value a cell outside the interior keeps.
  std::string boundaryValue(const std::string &PlaneIndex,
                            const std::string &Row) const;
  /// Helper(grid, PlaneIndex, plane, <this cell of row Row>, <extents>
  /// Extra): a call of one of the boundary helpers.
  std::string boundaryCall(const std::string &Helper,
                           const std::string &PlaneIndex,
                           const std::string &Row,
                           const std::string &Extra) const;
  /// True when the edge-tile kernel reads level Level's boundary values
  /// ahead into registers (bnd_L_F): levels 1 and up that would load them.
  bool boundaryAhead(int64_t Level) const;
  /// The value bnd_L_F gets for row Row: 0 inside the interior, else the
  /// boundary value.
  std::string boundaryAheadLoad(int64_t Level, const std::string &Row) const;
  /// Declares and fills the bnd_L_F registers for the first rows.
  void boundaryAheadSetup(const KernelPlan &K);
  /// After level Level used bnd_L_0: moves the registers up and loads the
  /// row Plan::Prefetch rows after the one it computed.
  void boundaryAheadShift(int64_t Level);
  /// The plane level Level's boundary values are in (the one step Level
  /// of the launch reads in the C loop).
  std::string levelPlane(int64_t Level) const {
    return planeAfter("bnd_plane", Level);
  }
  /// Three time levels (Plan::TimeLevels): each level also reads the cell's
  /// value two levels back (an5d_update's `older`), and launches store their
  /// last two levels.
  bool threeLevels() const { return P.TimeLevels == 3; }
  /// The device plane K levels after plane Base (a C expression; K may be
  /// -1): Base ^ 1 for odd K with two planes, else modulo AN5D_PLANES.
  std::string planeAfter(const std::string &Base, int64_t K) const {
    if (!threeLevels())
      return K % 2 ? Base + " ^ 1" : Base;
    if (K == 0)
      return Base;
    return "(" + Base + " + " +
           (K < 0 ? "AN5D_PLANES - " + str(-K) : str(K)) +
           ") % AN5D_PLANES";
  }
  /// Three levels: the levels before the last that a kernel of degree D
  /// stores too (out1 .. out<storedBack>): D - 1, the next launch's older
  /// level.
  static int64_t storedBack(int64_t D) { return std::min<int64_t>(D - 1, 1); }
  /// Three levels: level 1's older values live in a ring of OlderSlots registers per
  /// cell, the row loaded in unrolled phase q (the one level 1 computes
  /// OlderAhead phases later) in slot (q + OlderAhead) % OlderSlots: no
  /// register moves, so a load's latency overlaps OlderAhead whole rows.
  /// Set per kernel by olderRing().
  int64_t OlderSlots = 1, OlderAhead = 0;
  /// Sets them for kernel K: the read-ahead of level 0 (Plan::Prefetch, at
  /// least one row) in the smallest ring dividing K.Unroll that holds it.
  void olderRing(const KernelPlan &K);
  std::string olderName(int64_t Slot) const {
    return "older_" + str(Slot) + cellSuffix();
  }
  /// Cell's older value of row Row, or zero where Row leaves the interior
  /// (Ahead: rows past the one older_next points at).
  std::string olderLoad(const std::string &Row, int64_t Ahead,
                        std::string &Test) const;
  /// The older level's argument of an5d_update at level Level in phase
  /// Phase (level 1: the load of olderName(); above: level Level - 2's ring
  /// register of the same row), with its operand.
  std::pair<std::string, Operand> olderArg(int64_t Level, int64_t Phase) const;
  std::string bndName(int64_t Level, int64_t F) const {
    return "bnd_" + str(Level) + "_" + str(F) + cellSuffix();
  }
  /// This thread's index in its block (the shared-memory slot it owns).
  std::string threadIndex() const {
    return N == 2 ? "(int)threadIdx.x"
                  : "(int)(threadIdx.y * AN5D_BLOCK_X + threadIdx.x)";
  }
  /// The value each level's result falls back to outside the interior (in
  /// unrolled phase Phase), as Sel's Test and Alt: the cell's own value of
  /// level - 2 (Plan::boundaryFromRegisters), in the edge-tile kernel the
  /// value read ahead (bnd_L_0), else a load of the boundary value. None
  /// in the interior tiles' loop without tests.
  void levelKept(int64_t Level, int64_t Phase, const std::string &Row,
                 KernelOp &Sel) const;
  /// Register name of the cell at in-plane offset O of the incoming row.
  std::string neighbourName(const std::vector<int64_t> &O) const;
  std::string accName(int64_t Level, int64_t Slot) const {
    return "acc_" + str(Level) + "_" + str(Slot) + cellSuffix();
  }
  std::string incoming() const { return "incoming" + cellSuffix(); }
  /// Type the associative kernel accumulates in: the type of the sum.
  std::string accType() const;
  std::string reg(int64_t Level, int64_t Slot) const {
    return "reg_" + str(Level) + "_" + str(Slot) + cellSuffix();
  }
  /// Ring slot of level-(L-1) row (x + O) when level L computes row x in
  /// phase Phase.
  int64_t slotOf(int64_t Phase, int64_t O) const {
    return mod(Phase - P.Hi[0] + O, P.Ring);
  }

  // Kernel bodies (KernelIR.h).
  /// Starts kernel Name's body, inside its braces: until endKernel, what
  /// W writes becomes Code operations between the typed ones.
  void beginKernel(const std::string &Name);
  /// Verifies the body, prints it and keeps it in Kernels.
  void endKernel();
  /// Appends an operation of Kind after the code written since the last.
  KernelOp &op(KernelOpKind Kind);
  /// Moves the code written since the last operation into a Code
  /// operation; false if there was none.
  bool flushCode();
  /// The code written since the last operation reads Reads.
  void codeReads(std::vector<Operand> Reads);
  /// An operation of Kind (Move, SharedStore) that copies Src (holding
  /// Read) into Dst (then holding Write).
  KernelOp &assign(KernelOpKind Kind, std::string Dst, std::string Src,
                   Operand Read, Operand Write) {
    KernelOp &Op = op(Kind);
    Op.Dst = std::move(Dst);
    Op.Src = std::move(Src);
    Op.Reads = {std::move(Read)};
    Op.Writes = {std::move(Write)};
    return Op;
  }
  /// A Code operation of one line that writes Writes (a declaration that
  /// loads values the verifier follows).
  void codeOp(const std::string &Line, std::vector<Operand> Writes);
  /// Ends the body's structure opened by op(Loop/If/Else/Scope).
  void end() { op(KernelOpKind::End); }
  /// Level Level of row Row (relative to the streaming counter) in
  /// register Name.
  static Operand regValue(const std::string &Name, int64_t Level,
                          int64_t Row, int64_t Terms = 0) {
    return {Place::Register, Name, 0, {Level, Row, Terms, false}};
  }
  /// Cell's asynchronous slot Slot (aheadSlot) holding level 0 of Row.
  Operand slotValue(int64_t Slot, int64_t Row) const {
    return {Place::AsyncSlot, aheadSlot(Slot), 0, {0, Row, 0, false}};
  }
  /// The boundary value level Level's cell keeps in row Row.
  static Operand boundaryValueOf(const std::string &Name, int64_t Level,
                                 int64_t Row) {
    return {Place::Register, Name, 0, {Level, Row, 0, true}};
  }
  static Operand bufferValue(const std::string &Buf, int64_t Part,
                             int64_t Level, int64_t Row) {
    return {Place::SharedBuffer, Buf, Part, {Level, Row, 0, false}};
  }
  /// The operand cellNeighbourArg passes.
  Operand cellNeighbourOperand(const std::vector<int64_t> &O,
                               const std::string &Buf, int64_t Level,
                               int64_t Phase);
  std::vector<std::string> scalarArgList() const;
  /// "2D ", or for a 1D stencil "1D (as 2D with one row, " + It[0] + ") ".
  std::string dimsText() const {
    if (!S.VirtualDims)
      return std::to_string(N) + "D ";
    return std::to_string(N - S.VirtualDims) + "D (as " + std::to_string(N) +
           "D with one row, " + It[0] + ") ";
  }

  // Checked launches (CheckedLaunches.cpp): the scalar N.5D kernels of a
  // stencil with exact division helpers come in two instantiations,
  // an5d_checked true (no warp vote; a value outside the proved range only
  // sets a flag) and false (exact); the host redoes a flagged launch and
  // the ones after it with the exact one.
  /// Whether the update calls an exact division helper: then every
  /// an5d_steps of the file takes `check`, which only checked plans use.
  bool fileChecks() const;
  /// This plan's kernels are checked: fileChecks() and a scalar N.5D plan.
  bool checkedPlan() const;
  /// scalarParams() and, when Checked (and Uses), the flag the helpers set.
  std::string deviceParams(bool Uses = true) const;
  /// scalarArgList() and, when Checked (and Uses), that flag.
  /// Level: the level computed, for coefValueArgs (coefficient arrays).
  std::vector<std::string> deviceArgList(bool Uses = true,
                                         int64_t Level = 0) const;
  /// Fn, or Fn<an5d_checked> when Checked (and Uses).
  std::string checkedName(const std::string &Fn, bool Uses = true) const;
  /// "template <bool an5d_checked>" before a device function, when Checked
  /// (and Uses).
  void checkedTemplate(bool Uses = true);
  /// Whether the associative kernel's terms (an5d_accumulate) divide
  /// through a helper; an5d_finish may while they do not.
  bool termsDivide() const;
  /// Whether an5d_finish does: its outer division or its factor.
  bool finishDivides() const;
  /// The kernel's extra parameters when Checked: the flag word and the
  /// launch's index.
  std::string checkedKernelParams() const;
  /// First in a checked kernel: leave the planes alone after a flagged
  /// launch; the thread's flag.
  void checkedKernelBegin();
  /// Last in a checked kernel: a flagged thread records its launch.
  void checkedKernelEnd();
  /// AN5D_LAUNCH(Kernel + Rest, one level in: of the checked form when
  /// there is a flag word, else of the exact one.
  void launchChecked(const std::string &Kernel, const std::string &Rest);

  // Parameter lists.
  /// Parameters and arguments of an5d_steps after grid, t_first, steps.
  std::string stepsParams() const;
  std::string stepsArgs() const;
  /// The update's scalars as kernel parameters, then coefParams().
  std::string scalarParams() const;
  /// The user's scalars only (the run function's parameters).
  std::string userScalarParams() const;
  /// The arguments for scalarParams(); CoefName: the coefficient arrays'
  /// variable at the call.
  std::string scalarArgs(const std::string &CoefName = "coef_arrays") const;
  /// ", <Type>ext_i, ..." over the extents only.
  std::string extList(const std::string &Type) const;
  std::string gridList(const std::string &Type) const;
  std::string gridParams() const;
  std::string gridArgs() const;
  std::string zero() const {
    return S.Elem == ElemType::Float ? "0.0f" : "0.0";
  }
  std::string globalIndex(const std::string &Row) const;
  std::string interiorTest(const std::string &Row) const;

  static std::string sanitize(const std::string &Name);
  /// The user's -D macros, set aside around the generated code (#pragma
  /// push_macro) so that they rename none of its identifiers.
  std::vector<std::string> userMacros() const;

  const Stencil &S;
  const StencilAnalysis &A;
  const std::vector<Plan> &Plans;
  const Plan &P;
  const SourceText &Src;
  const UserNames &Names;
  /// generatedCode() is writing: no host runtime text, no user program.
  bool OwnCodeOnly = false;
  unsigned N;
  std::string Elem;
  std::vector<std::string> It, Ext, First, Last;
  std::string Fn;
  /// The update's operations printed through an exact helper.
  std::vector<ExactHelper> Helpers;
  /// This plan's kernels are checked (checkedPlan(), set with Helpers).
  bool Checked = false;
  std::map<std::string, std::string> ScalarName;
  CoefficientTable Coefs;
  CodeWriter Own;
  CodeWriter &W;
  std::vector<std::string> ParamMacros;
  GeneratedKernels &Kernels;
  /// The kernel body being written (beginKernel .. endKernel), or null.
  std::unique_ptr<KernelBody> Body;
  /// Which boundary tests the kernel code being written makes: the
  /// interior-tile kernel none, or rows only in the blocks at the ends of
  /// the stream; the edge-tile kernel every cell.
  enum class Tests { Cells, Rows, None };
  Tests Checks = Tests::Cells;
  /// The kernel being written is the edge-tile kernel: its blocks are the
  /// tiles whose columns (halo included) leave the interior, and it tests
  /// every cell. The other kernel gets the interior tiles.
  bool EdgeTiles = false;
  /// Cell value of the halo cell (inHalo): its names end in _halo.
  static constexpr int64_t HaloCell = -1;
  /// The cell of this thread the kernel code being written is for
  /// (0 .. Plan::Cells - 1, or HaloCell).
  int64_t Cell = 0;
};

} // namespace codegen
} // namespace an5d

#endif
