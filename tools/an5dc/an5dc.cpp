//===- an5dc.cpp - The an5dc driver ---------------------------------------===//
//
// Options, then the pipeline in order: frontend, polyhedral model, analysis
// (then plan, CUDA emission and the performance model as they land).
// '--dump=<stage>' prints a stage's result and stops there.
//
//===----------------------------------------------------------------------===//
#include "an5d/Analysis.h"
#include "an5d/Frontend.h"
#include "an5d/Polyhedral.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace an5d;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory Category("an5dc options");

cl::opt<std::string> Input(cl::Positional, cl::desc("<input.c>"),
                           cl::Required, cl::cat(Category));
cl::opt<std::string> Output("o", cl::desc("Write the generated CUDA here"),
                            cl::value_desc("file"), cl::cat(Category));

enum class DumpStage { None, Stencil, Scop, Analysis };
cl::opt<DumpStage> Dump(
    "dump", cl::desc("Print a stage's result and stop"),
    cl::values(clEnumValN(DumpStage::Stencil, "stencil",
                          "the stencil description and its analysis"),
               clEnumValN(DumpStage::Scop, "scop",
                          "the isl model: domain, accesses, schedule, "
                          "dependences"),
               clEnumValN(DumpStage::Analysis, "analysis",
                          "offsets, reach, shape, associativity, bounds")),
    cl::init(DumpStage::None), cl::cat(Category));

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
  if (!Output.empty()) {
    llvm::errs() << "an5dc: error: CUDA generation is not part of this "
                    "build yet; use --dump=stencil, --dump=scop or "
                    "--dump=analysis\n";
    return 1;
  }
  llvm::errs() << S->FileName << ": stencil '" << S->Function
               << "' accepted: " << S->numSpaceDims() << "D, radius "
               << A->Radius << ", " << shapeName(A->StencilShape) << "\n";
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
  Opts.InputFile = Input;
  return runPipeline(Opts);
}
