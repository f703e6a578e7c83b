//===- an5dc.cpp - The an5dc driver ---------------------------------------===//
//
// Options, then the pipeline in order: frontend, polyhedral model, analysis,
// the performance model's choice of parameters (what the user did not give),
// the plan and the CUDA emission. The output is written only when every
// stage succeeded (writeOutputFile), so a failure leaves no output file.
// '--dump=<stage>' prints a stage's result and stops there.
//
//===----------------------------------------------------------------------===//
#include "an5d/Analysis.h"
#include "an5d/CodeGen.h"
#include "an5d/Frontend.h"
#include "an5d/Model.h"
#include "an5d/Plan.h"
#include "an5d/Polyhedral.h"
#include "an5d/Stack.h"

#include "OutputFile.h"
#include "SourceText.h"


#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cstring>

using namespace an5d;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory Category("an5dc options");

cl::opt<std::string> Input(cl::Positional, cl::desc("<input.c>"),
                           cl::Required, cl::cat(Category));
cl::opt<std::string> Output("o", cl::desc("Write the generated CUDA here"),
                            cl::value_desc("file"), cl::cat(Category));

cl::opt<int> BlockT("bT", cl::desc("Degree of temporal blocking (default: the performance "
                             "model's choice)"),
                    cl::value_desc("N"), cl::init(4), cl::cat(Category));
cl::opt<std::string> BlockS(
    "bS",
    cl::desc("Threads per block: X (2D) or X,Y (3D), X along the innermost "
             "dimension (default: the performance model's choice)"),
    cl::value_desc("X[,Y]"), cl::cat(Category));
cl::opt<int> StreamLength(
    "sl", cl::desc("Rows of the streaming dimension per block (hSN; default: "
                   "the performance model's choice)"),
    cl::value_desc("H"), cl::init(128), cl::cat(Category));

cl::opt<int> CellsOpt(
    "cells",
    cl::desc("Cells each thread computes along the outer blocked dimension: "
             "bS apart in 2D, adjacent rows in 3D (1 to 8; default: the "
             "performance model's choice of 1 or 2 in 2D, 1, 2 or 4 in 3D)"),
    cl::value_desc("N"), cl::init(1), cl::cat(Category));

cl::opt<bool> HaloRowsOpt(
    "halo-rows",
    cl::desc("3D: copy level 0's rows just outside the block along Y with "
             "a few extra loads instead of computing them with halo "
             "threads (star and associative kernels; default: the "
             "performance model's choice, --halo-rows=false keeps halo "
             "threads)"),
    cl::init(false), cl::cat(Category));

cl::opt<int> VecOpt(
    "kvec",
    cl::desc("3D star stencils: adjacent cells each thread "
             "computes along the innermost dimension, copied, read and "
             "stored as one vector (4 for float, 2 for double; default 1, "
             "off)"),
    cl::value_desc("N"), cl::init(1), cl::cat(Category));

cl::opt<std::string> PtxasOptOpt(
    "ptxas-opt",
    cl::desc("ptxas optimization level the generated file's build line "
             "asks for (-Xptxas -O<n>): auto (default: 1 where the "
             "update's double literals would crowd the registers, else 3), "
             "1, 2 or 3"),
    cl::value_desc("auto|N"), cl::init("auto"), cl::cat(Category));

cl::opt<Scheme> SchemeOpt(
    "scheme", cl::desc("How the time loop runs on the GPU"),
    cl::values(clEnumValN(Scheme::N5D, "n5d",
                          "N.5D temporal blocking, bT steps per launch "
                          "(default)"),
               clEnumValN(Scheme::Naive, "naive",
                          "one launch per time step, one thread per cell: "
                          "the baseline to compare against, and a "
                          "fallback")),
    cl::init(Scheme::N5D), cl::cat(Category));
cl::opt<KernelKind> OptKernel(
    "opt", cl::desc("Which N.5D kernel"),
    cl::values(clEnumValN(KernelKind::Auto, "auto",
                          "the best that applies (default)"),
               clEnumValN(KernelKind::Star, "star",
                          "diagonal-access-free stencils: rows above and "
                          "below from registers, one row in shared memory"),
               clEnumValN(KernelKind::Assoc, "assoc",
                          "associative updates: partial sums, one row in "
                          "shared memory"),
               clEnumValN(KernelKind::None, "none",
                          "the general kernel: every row of the reach in "
                          "shared memory")),
    cl::init(KernelKind::Auto), cl::cat(Category));
cl::opt<int> MinBlocks(
    "min-blocks",
    cl::desc("Blocks per SM that __launch_bounds__ asks register allocation "
             "to allow (default: not set, nvcc chooses)"),
    cl::value_desc("N"), cl::cat(Category));
cl::opt<bool> SmVec(
    "sm-vec",
    cl::desc("Let nvcc vectorize shared-memory reads (default: scalar reads, "
             "which usually need fewer registers)"),
    cl::init(false), cl::cat(Category));

cl::opt<int> Prefetch(
    "prefetch",
    cl::desc("Rows the N.5D kernels read level 0 ahead of its use, to hide "
             "global-memory latency (0 to 8, default 2)"),
    cl::value_desc("N"), cl::cat(Category));

cl::opt<bool> AsyncPrefetch(
    "async-prefetch",
    cl::desc("Read level 0 ahead with asynchronous copies into shared "
             "memory (cp.async), which __syncthreads does not wait for "
             "(default; --async-prefetch=false reads into registers)"),
    cl::init(true), cl::cat(Category));

cl::opt<std::string> Gpu(
    "gpu",
    cl::desc("GPU to plan and build for: its limits (threads, registers, "
             "shared memory), the build line's -arch and the performance "
             "model's figures: H100 (default), H200, A100, V100, P100"),
    cl::value_desc("NAME"), cl::init("H100"), cl::cat(Category));
cl::opt<std::string> SizeOpt(
    "size",
    cl::desc("Grid the model plans for: N or NxM[xL], outermost first, "
             "boundary included (default: the paper's 16384^2 or 512^3)"),
    cl::value_desc("N[xM[xL]]"), cl::cat(Category));
cl::opt<bool> ModelOpt(
    "model",
    cl::desc("Print the performance model's ranked configurations and stop"),
    cl::init(false), cl::cat(Category));
cl::opt<bool> ModelCsv(
    "model-csv",
    cl::desc("Like --model, as CSV with every configuration"),
    cl::init(false), cl::cat(Category));
cl::opt<unsigned> ModelTop(
    "model-top", cl::desc("Rows --model prints (default 10)"),
    cl::value_desc("N"), cl::init(10), cl::cat(Category));
/// --autotune's most candidates. The generated program's cache key (a
/// 1024-byte buffer) lists every candidate's label, up to about 20 bytes
/// each, beside the function, file, grid and GPU names; more would also
/// make files of tens of megabytes (about 250 KB per 3D candidate).
constexpr unsigned MaxAutotune = 32;
cl::opt<unsigned> Autotune(
    "autotune",
    cl::desc("Emit the model's top K configurations (for 3D star stencils "
             "also a vector-cell one, --kvec); the program times them "
             "on its first run on a GPU and grid size and remembers the "
             "fastest (AN5D_TUNE_CACHE, AN5D_VERBOSE=1)"),
    cl::value_desc("K"), cl::init(0), cl::cat(Category));

cl::opt<std::string> Calibration(
    "model-calibration",
    cl::desc("Override the device's calibrated model figures: overhead "
             "instructions per cell and level, barrier cycles per warp, "
             "edge-block slowdown (for calibration runs, docs/model.md)"),
    cl::value_desc("OVERHEAD,LATENCY,EDGE"), cl::Hidden, cl::cat(Category));

enum class DumpStage { None, Stencil, Scop, Analysis, Plan, Model, Kernel };
cl::opt<DumpStage> Dump(
    "dump", cl::desc("Print a stage's result and stop"),
    cl::values(clEnumValN(DumpStage::Stencil, "stencil",
                          "the stencil description and its analysis"),
               clEnumValN(DumpStage::Scop, "scop",
                          "the isl model: domain, accesses, schedule, "
                          "dependences"),
               clEnumValN(DumpStage::Analysis, "analysis",
                          "offsets, reach, shape, associativity, bounds"),
               clEnumValN(DumpStage::Plan, "plan",
                          "block shape, tiles, registers, shared memory"),
               clEnumValN(DumpStage::Model, "model",
                          "the performance model's account of the chosen "
                          "configuration: thread classes, traffic, bounds"),
               clEnumValN(DumpStage::Kernel, "kernel",
                          "each kernel body as its list of typed "
                          "operations, with the values they read and "
                          "write")),
    cl::init(DumpStage::None), cl::cat(Category));

/// Test hook: drops one operation from every kernel body before the
/// verifier sees it, to show that the verifier rejects the result.
enum class DropOp { None, Wait, Barrier, Commit, Advance };
cl::opt<DropOp> KernelDrop(
    "kernel-drop", cl::desc("Remove the first operation of a kind from "
                            "every kernel body (tests the verifier)"),
    cl::values(clEnumValN(DropOp::Wait, "wait", "an asynchronous wait"),
               clEnumValN(DropOp::Barrier, "barrier", "a __syncthreads"),
               clEnumValN(DropOp::Commit, "commit", "a copy group's commit"),
               clEnumValN(DropOp::Advance, "advance",
                          "a streaming row's advance")),
    cl::init(DropOp::None), cl::Hidden, cl::cat(Category));

void printVersion(llvm::raw_ostream &OS) {
  OS << "an5dc " AN5D_VERSION " (N.5D temporal blocking for C stencils)\n";
}

/// Splits argv at "--": before it an5dc's options, after it clang's.
void splitArgs(int Argc, const char **Argv, std::vector<const char *> &Ours,
               std::vector<std::string> &Clang) {
  int I = 0;
  for (; I < Argc; ++I) {
    if (std::strcmp(Argv[I], "--") == 0)
      break;
    Ours.push_back(Argv[I]);
  }
  for (++I; I < Argc; ++I)
    Clang.push_back(Argv[I]);
}

/// Parses -bS "X" or "X,Y" into sizes; false on a malformed list.
bool parseBlockSizes(const std::string &Text, std::vector<int64_t> &Out) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(Text).split(Parts, ',');
  for (llvm::StringRef Part : Parts) {
    int64_t V = 0;
    if (Part.trim().getAsInteger(10, V))
      return false;
    Out.push_back(V);
  }
  return !Out.empty() && Out.size() <= 2;
}

/// Prints the model's ranking as CSV, every configuration.
void printRankingCsv(llvm::raw_ostream &OS, const std::vector<Prediction> &R) {
  OS << "rank,bT,bS,hSN,cells,halo_rows,kernel,GFLOP/s,ms_per_step,limit,registers,"
        "register_cap,spills,blocks_per_sm,compute_us,issue_us,shared_us,"
        "global_us,wave_efficiency,latency_efficiency\n";
  for (size_t I = 0; I < R.size(); ++I) {
    const Prediction &P = R[I];
    std::string BS = userBlockSizes(P.BS, "x");
    OS << llvm::format("%zu,%lld,%s,%lld,%lld,%d,%s,%.1f,%.6f,%s,%lld,%lld,%d,"
                       "%lld,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f\n",
                       I + 1, (long long)P.BT, BS.c_str(),
                       (long long)P.StreamBlock, (long long)P.Cells,
                       int(P.HaloRows), kernelKindName(P.Kernel),
                       P.GFlops, P.SecondsPerStep * 1e3,
                       P.Limit.substr(0, P.Limit.find(" (")).c_str(),
                       (long long)P.Registers, (long long)P.RegisterCap,
                       int(P.Spills), (long long)P.BlocksPerSM,
                       P.TimeCompute * 1e6, P.TimeIssue * 1e6,
                       P.TimeShared * 1e6, P.TimeGlobal * 1e6,
                       P.WaveEfficiency, P.LatencyEfficiency);
  }
}

/// The header's account of a plan the model chose.
std::string modelOrigin(const Prediction &R, const DeviceSpec &D,
                        const ProblemSize &Size, const std::string &Fixed,
                        size_t Rank, size_t Count) {
  std::string Text =
      "chosen by the performance model (an5dc --model) for " + D.Name +
      ", grid " + sizeText(Size) + (Fixed.empty() ? "" : ", " + Fixed) +
      (Count > 1 ? "; candidate " + std::to_string(Rank + 1) + " of " +
                       std::to_string(Count)
                 : "") +
      ": predicted " + llvm::formatv("{0:f1}", R.GFlops).str() +
      " GFLOP/s, limited by " + R.Limit + "; " +
      std::to_string(R.Registers) + " registers estimated (cap " +
      std::to_string(R.RegisterCap) + ")";
  return Text;
}

/// The plan of PO with the vector-cell parameters the user left out taken
/// from the shape that measured fastest for the 3D stars on an H200
/// (docs/performance.md): bT 1, -bS 32,16, --sl 64, --cells 2; Defaults
/// lists those taken. False when makePlan fails, after reporting its error
/// when Report.
bool planVectorCells(const Stencil &S, const StencilAnalysis &A,
                     PlanOptions PO, Plan &P, std::string &Defaults,
                     bool Report = true) {
  auto fill = [&](const cl::Option &O, const std::string &Text,
                  const auto &Set) {
    if (O.getNumOccurrences())
      return;
    Set();
    Defaults += " " + Text;
  };
  fill(BlockT, "-bT 1", [&] { PO.BT = 1; });
  // A 3D block: in 2D, makePlan says that --kvec is for 3D stencils.
  if (S.numSpaceDims() == 3)
    fill(BlockS, "-bS 32,16", [&] { PO.BS = {32, 16}; });
  fill(StreamLength, "--sl 64", [&] { PO.StreamBlock = 64; });
  fill(CellsOpt, "--cells 2", [&] { PO.Cells = 2; });
  std::string Error;
  if (makePlan(S, A, PO, P, Error))
    return true;
  if (Report)
    llvm::errs() << "an5dc: error: " << Error << "\n";
  return false;
}

/// The plan of --kvec (planVectorCells). The model does not rank
/// vector-cell shapes yet, so --model refuses them. False after reporting
/// an error.
bool vectorPlan(const Stencil &S, const StencilAnalysis &A,
                const PlanOptions &PO, bool Listing, std::vector<Plan> &Plans) {
  if (Listing) {
    llvm::errs() << "an5dc: error: --model does not rank vector-cell "
                    "configurations yet; drop --kvec, or give its "
                    "parameters\n";
    return false;
  }
  Plan P;
  std::string Defaults;
  if (!planVectorCells(S, A, PO, P, Defaults))
    return false;
  std::string Given = "-bT " + std::to_string(P.BT) + " -bS " +
                      userBlockSizes(P.BS) + " --sl " +
                      std::to_string(P.StreamBlock) + " --cells " +
                      std::to_string(P.Cells) + " --kvec " +
                      std::to_string(P.VecK);
  P.Origin = Defaults.empty()
                 ? "given on the command line (" + Given + ")"
                 : "--kvec " + std::to_string(P.VecK) + " with" + Defaults +
                       " (the vector-cell defaults; the model does not rank "
                       "vector-cell shapes yet)";
  Plans.push_back(P);
  return true;
}

/// --autotune's vector-cell candidate: --kvec's vector (by default 16
/// bytes) planned by planVectorCells, appended to Plans. Without --kvec
/// only where vector cells apply (3D, diagonal-access free, the star or
/// auto kernel, no --halo-rows) and makePlan accepts the block; with it,
/// makePlan says why not. The model does not rank it; the program's first
/// run times it with the others. False after reporting an error.
bool addVectorCandidate(const Stencil &S, const StencilAnalysis &A,
                        PlanOptions PO, std::vector<Plan> &Plans) {
  bool Asked = PO.VecK > 1;
  if (!Asked)
    PO.VecK = MaxVectorBytes / elemTypeBytes(S.Elem);
  clang::SourceRange Where;
  bool Applies = S.numSpaceDims() == 3 &&
                 vectorRefusal(S, A, PO.VecK, Where).empty() &&
                 (PO.Kernel == KernelKind::Auto ||
                  PO.Kernel == KernelKind::Star) &&
                 !PO.HaloRows;
  if (!Asked && !Applies)
    return true;
  Plan P;
  std::string Defaults;
  if (!planVectorCells(S, A, PO, P, Defaults, /*Report=*/Asked))
    return !Asked; // a candidate the user did not ask for is left out
  P.Origin = "vector-cell candidate --kvec " + std::to_string(P.VecK) +
             (Defaults.empty() ? std::string() : " with" + Defaults) +
             " (the vector-cell defaults; not ranked by the model)";
  Plans.push_back(P);
  return true;
}

/// The device of --gpu, with --model-calibration's figures. False after
/// reporting an error.
bool chooseDevice(DeviceSpec &Calibrated) {
  const DeviceSpec *Found = findDevice(Gpu);
  if (!Found) {
    std::string Known;
    for (const DeviceSpec &D : deviceTable())
      Known += (Known.empty() ? "" : ", ") + D.Name;
    llvm::errs() << "an5dc: error: --gpu '" << Gpu
                 << "' is not a GPU the model knows; use one of " << Known
                 << "\n";
    return false;
  }
  Calibrated = *Found;
  if (!Calibration.empty()) {
    llvm::SmallVector<llvm::StringRef, 3> Parts;
    llvm::StringRef(Calibration).split(Parts, ',');
    if (Parts.size() != 3 ||
        Parts[0].getAsDouble(Calibrated.OverheadInstr) ||
        Parts[1].getAsDouble(Calibrated.LatencyCycles) ||
        Parts[2].getAsDouble(Calibrated.EdgeSlowdown)) {
      llvm::errs() << "an5dc: error: --model-calibration takes three numbers, "
                      "e.g. 24,12,3\n";
      return false;
    }
  }
  return true;
}

/// The plans to emit for PO (whose Gpu is Dev's): the user's parameters
/// when -bT, -bS and --sl are all given; otherwise the model's best for
/// --gpu and --size among the configurations that keep what the user gave
/// (its top K with --autotune=K). With --model or --model-csv prints the
/// ranking and leaves Plans empty. False after reporting an error.
bool choosePlans(const Stencil &S, const StencilAnalysis &A,
                 const PlanOptions &PO, const DeviceSpec *Dev,
                 std::vector<Plan> &Plans,
                 std::vector<Prediction> &Predictions) {
  ProblemSize Size = paperSize(S.numSpaceDims());
  std::string Error;
  if (SizeOpt.getNumOccurrences() &&
      !parseProblemSize(SizeOpt, S.numSpaceDims(), Size, Error)) {
    llvm::errs() << "an5dc: error: " << Error << "\n";
    return false;
  }
  bool Listing = ModelOpt || ModelCsv;
  if (PO.Run == Scheme::Naive && (Listing || Autotune)) {
    llvm::errs() << "an5dc: error: " << (Autotune ? "--autotune" : "--model")
                 << " chooses N.5D parameters; it has nothing to choose with "
                    "--scheme=naive\n";
    return false;
  }
  if (PO.Run == Scheme::N5D && PO.VecK > 1 && Autotune <= 1)
    return vectorPlan(S, A, PO, Listing, Plans);
  bool AllGiven = BlockT.getNumOccurrences() && BlockS.getNumOccurrences() &&
                  StreamLength.getNumOccurrences();
  if (PO.Run == Scheme::N5D && (Listing || Autotune > 1 || !AllGiven)) {
    SearchConstraints C;
    std::string Fixed;
    if (BlockT.getNumOccurrences()) {
      C.BT = PO.BT;
      Fixed += " -bT " + std::to_string(PO.BT);
    }
    if (BlockS.getNumOccurrences()) {
      C.BS = PO.BS;
      Fixed += " -bS " + BlockS;
    }
    if (StreamLength.getNumOccurrences()) {
      C.StreamBlock = PO.StreamBlock;
      Fixed += " --sl " + std::to_string(PO.StreamBlock);
    }
    if (CellsOpt.getNumOccurrences()) {
      C.Cells = PO.Cells;
      Fixed += " --cells " + std::to_string(PO.Cells);
    }
    if (HaloRowsOpt.getNumOccurrences()) {
      C.HaloRows = PO.HaloRows;
      if (PO.HaloRows)
        Fixed += " --halo-rows";
    }
    if (!Fixed.empty())
      Fixed = "given" + Fixed;
    // The model ranks the scalar kernels; --autotune adds a vector one.
    PlanOptions Scalar = PO;
    Scalar.VecK = 1;
    std::vector<Prediction> Ranking =
        rankConfigurations(S, A, Scalar, C, Size, *Dev);
    if (ModelCsv) {
      printRankingCsv(llvm::outs(), Ranking);
      return true;
    }
    if (ModelOpt) {
      printRanking(llvm::outs(), S, A, Ranking, Size, *Dev, ModelTop);
      if (!Ranking.empty())
        return true;
      Plan P;
      llvm::errs() << "an5dc: error: no configuration of the search space "
                      "fits "
                   << Dev->Name
                   << (makePlan(S, A, PO, P, Error) ? "" : ": " + Error)
                   << "\n";
      return false;
    }
    if (!Ranking.empty() && Ranking.front().Spills)
      llvm::errs() << "an5dc: warning: every configuration is predicted to "
                      "spill registers on "
                   << Dev->Name << "; using the fastest predicted\n";
    size_t Count = std::min<size_t>(Ranking.size(), std::max(1u, unsigned(Autotune)));
    for (size_t I = 0; I < Count; ++I) {
      Plan P;
      bool Planned = makePlan(S, A, optionsOf(Ranking[I], Scalar), P, Error);
      assert(Planned && "the model ranks only configurations that plan");
      (void)Planned;
      P.Origin = modelOrigin(Ranking[I], *Dev, Size, Fixed, I, Count);
      Plans.push_back(P);
      Predictions.push_back(Ranking[I]);
    }
    if (Autotune > 1 && !addVectorCandidate(S, A, PO, Plans))
      return false;
    if (!Plans.empty())
      return true;
  }
  Plan P;
  if (!makePlan(S, A, PO, P, Error)) {
    llvm::errs() << "an5dc: error: " << Error << "\n";
    return false;
  }
  if (PO.Run == Scheme::N5D) {
    P.Origin = "given on the command line (-bT " + std::to_string(PO.BT) +
               " -bS " + BlockS + " --sl " + std::to_string(PO.StreamBlock) +
               (CellsOpt.getNumOccurrences()
                    ? " --cells " + std::to_string(PO.Cells)
                    : std::string()) +
               (PO.HaloRows ? " --halo-rows" : "") +
               (PO.VecK > 1 ? " --kvec " + std::to_string(PO.VecK)
                            : std::string()) +
               ")";
    Predictions.push_back(predict(S, A, P, Size, *Dev));
  }
  Plans.push_back(P);
  return true;
}

/// Runs the pipeline; returns the process exit status.
int runPipeline(const FrontendOptions &Opts) {
  std::unique_ptr<SourceSession> Session = SourceSession::create(Opts);
  std::optional<Stencil> S = extractStencil(*Session);
  if (!S)
    return 1;
  Diagnoser &D = Session->diags();
  std::optional<ScopModel> M = buildScopModel(*S, D);
  if (!M)
    return 1;
  if (Dump == DumpStage::Scop) {
    M->dump(llvm::outs());
    return 0;
  }
  std::optional<StencilAnalysis> A = analyzeStencil(*S, *M, D);
  if (!A)
    return 1;
  if (Dump == DumpStage::Stencil) {
    S->dump(llvm::outs());
    A->dump(llvm::outs());
    return 0;
  }
  if (Dump == DumpStage::Analysis) {
    A->dump(llvm::outs());
    return 0;
  }
  if (Output.empty() && Dump != DumpStage::Plan && Dump != DumpStage::Model &&
      Dump != DumpStage::Kernel &&
      !ModelOpt && !ModelCsv) {
    llvm::errs() << S->FileName << ": stencil '" << S->Function
                 << "' accepted: " << S->numSpaceDims() << "D, radius "
                 << A->Radius << ", " << shapeName(A->StencilShape) << "\n";
    return 0;
  }
  PlanOptions PO;
  PO.Run = SchemeOpt;
  PO.Kernel = OptKernel;
  if (MinBlocks.getNumOccurrences())
    PO.MinBlocks = MinBlocks;
  PO.SmVec = SmVec;
  if (Prefetch.getNumOccurrences())
    PO.Prefetch = Prefetch;
  PO.AsyncPrefetch = AsyncPrefetch;
  if (Autotune.getNumOccurrences() &&
      (Autotune < 1 || Autotune > MaxAutotune)) {
    llvm::errs() << "an5dc: error: --autotune=" << Autotune
                 << " is out of range; use 1 to " << MaxAutotune
                 << " candidates\n";
    return 1;
  }
  if (PO.Run == Scheme::Naive) {
    const std::pair<const cl::Option *, const char *> NotNaive[] = {
        {&BlockT, "-bT"}, {&BlockS, "-bS"}, {&StreamLength, "--sl"},
        {&CellsOpt, "--cells"}, {&HaloRowsOpt, "--halo-rows"},
        {&VecOpt, "--kvec"},
        {&OptKernel, "--opt"}, {&SmVec, "--sm-vec"},
        {&Prefetch, "--prefetch"}, {&AsyncPrefetch, "--async-prefetch"}};
    for (const auto &[O, Name] : NotNaive)
      if (O->getNumOccurrences())
        llvm::errs() << "an5dc: warning: " << Name
                     << " has no effect with --scheme=naive\n";
  } else if (PO.Kernel != KernelKind::Auto) {
    clang::SourceRange Where;
    std::string Why = kernelRefusal(*S, *A, PO.Kernel, Where);
    if (!Why.empty()) {
      D.error(Reject::KernelNotApplicable, Where, Why);
      return 1;
    }
  }
  if (PO.Run == Scheme::N5D && VecOpt > 1) {
    clang::SourceRange Where;
    std::string Why = vectorRefusal(*S, *A, VecOpt, Where);
    if (!Why.empty()) {
      D.error(Reject::KernelNotApplicable, Where, Why);
      return 1;
    }
  }
  if (PtxasOptOpt != "auto") {
    if (PtxasOptOpt.size() != 1 || PtxasOptOpt[0] < '1' ||
        PtxasOptOpt[0] > '3') {
      llvm::errs() << "an5dc: error: --ptxas-opt '" << PtxasOptOpt
                   << "' is not auto, 1, 2 or 3\n";
      return 1;
    }
    PO.PtxasOpt = PtxasOptOpt[0] - '0';
  }
  PO.BT = BlockT;
  PO.StreamBlock = StreamLength;
  PO.Cells = CellsOpt;
  PO.HaloRows = HaloRowsOpt;
  PO.VecK = VecOpt;
  if (!BlockS.empty() && !parseBlockSizes(BlockS, PO.BS)) {
    llvm::errs() << "an5dc: error: -bS '" << BlockS
                 << "' is not a size or a pair of sizes, e.g. -bS 64 or "
                    "-bS 16,8\n";
    return 1;
  }
  std::vector<Plan> Plans;
  std::vector<Prediction> Predictions;
  DeviceSpec Dev;
  if (!chooseDevice(Dev))
    return 1;
  PO.Gpu = Dev;
  if (std::optional<OptionError> E =
          checkOptions(PO, S->numSpaceDims(), S->Elem)) {
    llvm::errs() << "an5dc: error: " << E->Message << "\n";
    return 1;
  }
  if (!choosePlans(*S, *A, PO, &Dev, Plans, Predictions))
    return 1;
  if (Plans.empty())
    return 0; // --model printed its table
  if (Dump == DumpStage::Plan) {
    for (const Plan &P : Plans)
      P.dump(llvm::outs());
    return 0;
  }
  if (Dump == DumpStage::Model) {
    if (Predictions.empty())
      llvm::errs() << "an5dc: error: --dump=model describes the N.5D scheme; "
                   << (PO.Run == Scheme::Naive
                           ? "the naive scheme has no model"
                           : "vector cells (--kvec) have no model yet")
                   << "\n";
    for (const Prediction &R : Predictions)
      R.dump(llvm::outs());
    return Predictions.empty() ? 1 : 0;
  }
  if (D.hasErrors())
    return 1;
  SourceText Src = an5dc::describeSource(*Session, *S, Opts.CompilerArgs);
  GeneratedKernels Kernels;
  switch (KernelDrop) {
  case DropOp::None: break;
  case DropOp::Wait: Kernels.Drop = KernelOpKind::Wait; break;
  case DropOp::Barrier: Kernels.Drop = KernelOpKind::Barrier; break;
  case DropOp::Commit: Kernels.Drop = KernelOpKind::Commit; break;
  case DropOp::Advance: Kernels.Drop = KernelOpKind::Advance; break;
  }
  std::string Text = emitCuda(*S, *A, Plans, Src, Kernels);
  if (Dump == DumpStage::Kernel) {
    for (const KernelBody &B : Kernels.Bodies)
      B.dump(llvm::outs());
  }
  // A verifier finding is an5dc's bug, not the user's: nothing is written.
  for (const std::string &E : Kernels.Errors)
    llvm::errs() << "an5dc: internal error: the generated " << E
                 << "; please report this with the input file\n";
  if (!Kernels.Errors.empty())
    return 70;
  if (Dump == DumpStage::Kernel)
    return 0;
  if (!an5dc::writeOutputFile(Output, Text))
    return 1;
  const Plan &Build = buildLevelPlan(Plans);
  if (Build.PtxasOpt != 3 && PO.PtxasOpt == 0)
    llvm::errs() << "an5dc: note: build " << Output << " with nvcc "
                 << nvccFlags(Plans) << ": " << Build.PtxasReason
                 << " (--ptxas-opt=3 turns this off)\n";
  return 0;
}

} // namespace

int main(int Argc, const char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  std::vector<const char *> Ours;
  FrontendOptions Opts;
  splitArgs(Argc, Argv, Ours, Opts.CompilerArgs);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  if (!cl::ParseCommandLineOptions(
          Ours.size(), Ours.data(),
          "an5dc: C stencil loops to CUDA with N.5D temporal blocking\n\n"
          "  an5dc input.c [options] [-- <clang options, e.g. -DN=512 -Iinc>]\n",
          &llvm::errs()))
    return 1;
  if (!llvm::sys::fs::exists(Input)) {
    llvm::errs() << "an5dc: error: no such file: '" << Input << "'\n";
    return 1;
  }
  if (llvm::sys::fs::is_directory(Input)) {
    llvm::errs() << "an5dc: error: '" << Input << "' is a directory\n";
    return 1;
  }
  bool Same = false;
  if (!Output.empty() && !llvm::sys::fs::equivalent(Input, Output, Same) &&
      Same) {
    llvm::errs() << "an5dc: error: -o '" << Output
                 << "' would overwrite the input file\n";
    return 1;
  }
  Opts.InputFile = Input;
  // Deep update expressions recurse deeply in clang's parser and in every
  // stage (an5d/Stack.h).
  return runOnLargeStack([&] { return runPipeline(Opts); });
}
