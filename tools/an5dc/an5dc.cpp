//===- an5dc.cpp - The an5dc driver ---------------------------------------===//
//
// The command line into DriverOptions, then the pipeline (runDriver,
// Driver.h). The output is written only when every stage succeeded
// (writeOutputFile), so a failure leaves no output file.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"
#include "OutputFile.h"
#include "VisibleGpu.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace an5d;
using namespace an5dc;
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

cl::opt<bool> FastMath(
    "fast-math",
    cl::desc("nvcc's --use_fast_math: approximate float division and sqrt, "
             "flush subnormals to zero, and let an5dc reassociate the update "
             "(the associative kernel then distributes factors over sums); "
             "results may differ from the C loop in the last bits"),
    cl::init(false), cl::cat(Category));

cl::opt<bool> MpiOpt(
    "mpi",
    cl::desc("Run the region SPMD under mpirun: every rank runs the "
             "program, rank r computes slab r of the grid on a GPU of its "
             "node, halos go between ranks through MPI, and every rank ends "
             "with the whole result (build with -ccbin mpicxx)"),
    cl::init(false), cl::cat(Category));

cl::opt<std::string> Gpu(
    "gpu",
    cl::desc("GPU to plan and build for: its limits (threads, registers, "
             "shared memory), the build line's -arch and the performance "
             "model's figures: H100, H200, A100, V100, P100 (default: the "
             "GPU nvidia-smi lists first, else H100)"),
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
             "edge-block slowdown[, the vector-cell kernel's overhead per "
             "cell[, the 2D float kernels' overhead and edge slowdown[, "
             "their exposed global-memory share[, the 3D float kernels' "
             "overhead[ and edge slowdown]]]]] (for calibration runs, "
             "docs/model.md)"),
    cl::value_desc("OVERHEAD,LATENCY,EDGE[,VECTOR[,OVERHEAD_2D,EDGE_2D[,"
                   "EXPOSED_2D[,OVERHEAD_3D[,EDGE_3D]]]]]"),
    cl::Hidden, cl::cat(Category));

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
cl::opt<KernelOpKind> KernelDrop(
    "kernel-drop", cl::desc("Remove the first operation of a kind from "
                            "every kernel body (tests the verifier)"),
    cl::values(clEnumValN(KernelOpKind::Wait, "wait", "an asynchronous wait"),
               clEnumValN(KernelOpKind::Barrier, "barrier",
                          "a __syncthreads"),
               clEnumValN(KernelOpKind::Commit, "commit",
                          "a copy group's commit"),
               clEnumValN(KernelOpKind::Advance, "advance",
                          "a streaming row's advance")),
    cl::Hidden, cl::cat(Category));

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

/// The value of an option the user gave; empty where the default applies.
template <typename T, typename OptT>
std::optional<T> given(const OptT &Opt) {
  if (!Opt.getNumOccurrences())
    return std::nullopt;
  return T(Opt);
}

/// The command line as DriverOptions.
DriverOptions driverOptions(FrontendOptions Frontend) {
  DriverOptions O;
  O.Frontend = std::move(Frontend);
  O.EmitCuda = !Output.empty();
  O.BT = given<int>(BlockT);
  O.BS = given<std::string>(BlockS);
  O.StreamBlock = given<int>(StreamLength);
  O.Cells = given<int>(CellsOpt);
  O.HaloRows = given<bool>(HaloRowsOpt);
  O.VecK = given<int>(VecOpt);
  O.PtxasOpt = PtxasOptOpt;
  O.Run = given<Scheme>(SchemeOpt);
  O.Kernel = given<KernelKind>(OptKernel);
  O.MinBlocks = given<int>(MinBlocks);
  O.SmVec = given<bool>(SmVec);
  O.Prefetch = given<int>(Prefetch);
  O.AsyncPrefetch = given<bool>(AsyncPrefetch);
  O.FastMath = FastMath;
  O.Mpi = MpiOpt;
  O.Gpu = Gpu;
  // No --gpu: the GPU of this machine, when nvidia-smi shows a known one.
  if (Gpu.getNumOccurrences() == 0)
    if (std::optional<std::string> Seen = visibleGpuName()) {
      std::string Name = tableNameOf(*Seen);
      if (Name.empty())
        llvm::errs() << "an5dc: warning: the visible GPU '" << *Seen
                     << "' is not one the model knows; planning for " << O.Gpu
                     << " (--gpu picks another)\n";
      else {
        O.Gpu = Name;
        O.GpuOrigin = "the visible GPU, " + *Seen;
      }
    }
  O.Size = given<std::string>(SizeOpt);
  O.Model = ModelOpt;
  O.ModelCsv = ModelCsv;
  O.ModelTop = ModelTop;
  O.Autotune = given<unsigned>(Autotune);
  O.Calibration = Calibration;
  O.Dump = Dump;
  O.KernelDrop = given<KernelOpKind>(KernelDrop);
  return O;
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
  DriverOutput Out;
  if (int Status = runDriver(driverOptions(std::move(Opts)), Out))
    return Status;
  if (!Out.Emitted)
    return 0;
  if (!writeOutputFile(Output, Out.Cuda))
    return 1;
  if (!Out.BuildNote.empty())
    llvm::errs() << "an5dc: note: build " << Output << " " << Out.BuildNote
                 << "\n";
  return 0;
}
