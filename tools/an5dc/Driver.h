//===- Driver.h - The an5dc pipeline behind the command line --------------===//
//
// The driver's work, from the parsed options to the CUDA text: an5dc's main
// fills DriverOptions from its command line and writes what runDriver
// returns; the fuzzer (fuzz/FrontendFuzzer.cpp) fills them from its bytes
// and keeps the text in memory.
//
//===----------------------------------------------------------------------===//
#ifndef AN5DC_DRIVER_H
#define AN5DC_DRIVER_H

#include "an5d/Frontend.h"
#include "an5d/KernelIR.h"
#include "an5d/Plan.h"

#include <optional>
#include <string>
#include <vector>

namespace an5dc {

enum class DumpStage { None, Stencil, Scop, Analysis, Plan, Model, Kernel };

/// The command line as plain data. An empty optional is an option the
/// user did not give: the performance model chooses those parameters.
struct DriverOptions {
  an5d::FrontendOptions Frontend;
  /// Whether -o was given: without it the driver only checks the input.
  bool EmitCuda = false;
  std::optional<int> BT;          // -bT (default 4 where the model is not asked)
  std::optional<std::string> BS;  // -bS X[,Y]
  std::optional<int> StreamBlock; // --sl (default 128)
  std::optional<int> Cells;       // --cells (default 1)
  std::optional<bool> HaloRows;   // --halo-rows (default false)
  std::optional<int> VecK;        // --kvec (default 1)
  std::string PtxasOpt = "auto";  // --ptxas-opt
  std::optional<an5d::Scheme> Run;         // --scheme (default n5d)
  std::optional<an5d::KernelKind> Kernel;  // --opt (default auto)
  std::optional<int> MinBlocks;      // --min-blocks (default: not set)
  std::optional<bool> SmVec;         // --sm-vec (default false)
  std::optional<int> Prefetch;       // --prefetch (default: the plan's, 2)
  std::optional<bool> AsyncPrefetch; // --async-prefetch (default true)
  bool FastMath = false;             // --fast-math
  bool Mpi = false;                  // --mpi
  std::string Gpu = "H100";          // --gpu
  /// Where Gpu came from when --gpu was not given and a GPU is visible
  /// ("the visible GPU, NVIDIA H200"), for the header; else empty.
  std::string GpuOrigin;
  std::optional<std::string> Size;   // --size
  bool Model = false;                // --model
  bool ModelCsv = false;             // --model-csv
  unsigned ModelTop = 10;            // --model-top
  std::optional<unsigned> Autotune;  // --autotune
  std::string Calibration;           // --model-calibration
  DumpStage Dump = DumpStage::None;  // --dump
  /// --kernel-drop (hidden test hook): the first operation of this kind is
  /// removed from every kernel body before the verifier sees it.
  std::optional<an5d::KernelOpKind> KernelDrop;
};

/// What the pipeline produced for -o.
struct DriverOutput {
  /// Whether every stage succeeded and Cuda holds the generated file.
  bool Emitted = false;
  std::string Cuda;
  /// Where the file needs nvcc flags beyond the defaults: "with nvcc
  /// <flags>: <why>", for the note printed after writing it; else empty.
  std::string BuildNote;
  /// The kernel verifier's findings (GeneratedKernels::Errors): an5dc's
  /// bug, not the user's; runDriver then returns InternalErrorStatus.
  std::vector<std::string> InternalErrors;
};

/// runDriver's status when the generated kernels fail the verifier
/// (EX_SOFTWARE): an internal error, reported as one, with nothing written.
constexpr int InternalErrorStatus = 70;

/// --autotune's most candidates. The generated program's cache key (a
/// 1024-byte buffer) lists every candidate's label, up to about 20 bytes
/// each, beside the function, file, grid and GPU names; more would also
/// make files of tens of megabytes (about 250 KB per 3D candidate).
constexpr unsigned MaxAutotune = 32;

/// Runs the pipeline (frontend, polyhedral model, analysis, the model's
/// choice of what O leaves open, plan, emission) on a large stack
/// (an5d/Stack.h) and returns the process exit status. Errors are reported
/// on standard error (clang diagnostics for the source); dumps, --model
/// and --model-csv print on standard output. Out.Emitted is set only when
/// O.EmitCuda, every stage succeeded and no dump was asked; nothing is
/// written to a file.
int runDriver(const DriverOptions &O, DriverOutput &Out);

} // namespace an5dc

#endif
