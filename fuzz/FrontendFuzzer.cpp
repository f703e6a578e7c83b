//===- FrontendFuzzer.cpp - libFuzzer target for the an5dc pipeline -------===//
//
// The fuzzer's bytes are a command line choice and a C source file: the
// first byte picks one of a few option sets (so that the model, the kernel
// choices and the naive scheme are all reached), the rest is the input
// file, given to the frontend from memory. The pipeline is the driver's
// own (runDriver, tools/an5dc/Driver.h), with -o, so every stage up to the
// CUDA text runs, the kernel verifier included; the text stays in memory.
// Rejecting the input is fine; a verifier finding aborts (an5dc's bug).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

using namespace an5d;
using namespace an5dc;

namespace {

/// The option sets the first byte chooses from (modulo their count).
DriverOptions optionSet(uint8_t Choice) {
  DriverOptions O;
  switch (Choice % 9) {
  case 0: // the model's choice of every parameter
    break;
  case 1:
    O.Kernel = KernelKind::Assoc;
    break;
  case 2:
    O.Run = Scheme::Naive;
    break;
  case 3:
    O.BT = 2;
    break;
  case 4:
    O.VecK = 4;
    break;
  case 5:
    O.Cells = 2;
    break;
  case 6: // every parameter given: the model is not asked
    O.BT = 2;
    O.BS = "32";
    O.StreamBlock = 32;
    break;
  case 7:
    O.Kernel = KernelKind::Star;
    O.HaloRows = true;
    break;
  case 8:
    O.Kernel = KernelKind::None;
    O.Prefetch = 0;
    O.AsyncPrefetch = false;
    break;
  }
  return O;
}

/// Test hook, the fuzzer's --kernel-drop: AN5D_FUZZ_KERNEL_DROP=wait,
/// barrier, commit or advance removes that operation from every kernel
/// body, so that test/Fuzz/verifier-abort.test sees a finding abort.
std::optional<KernelOpKind> kernelDropFromEnv() {
  const char *Env = std::getenv("AN5D_FUZZ_KERNEL_DROP");
  if (!Env)
    return std::nullopt;
  const std::pair<const char *, KernelOpKind> Names[] = {
      {"wait", KernelOpKind::Wait},
      {"barrier", KernelOpKind::Barrier},
      {"commit", KernelOpKind::Commit},
      {"advance", KernelOpKind::Advance}};
  for (const auto &[Name, Kind] : Names)
    if (std::strcmp(Env, Name) == 0)
      return Kind;
  std::fprintf(stderr, "AN5D_FUZZ_KERNEL_DROP='%s' is not wait, barrier, "
                       "commit or advance\n", Env);
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  DriverOptions O = optionSet(Data[0]);
  O.EmitCuda = true;
  static const std::optional<KernelOpKind> Drop = kernelDropFromEnv();
  O.KernelDrop = Drop;
  O.Frontend.InputFile = "fuzz.c";
  O.Frontend.InputText =
      std::string(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  DriverOutput Out;
  int Status = runDriver(O, Out);
  // A verifier finding is a bug in an5dc (runDriver printed it): abort, so
  // that libFuzzer reports the input as a crash and keeps it.
  if (!Out.InternalErrors.empty() || Status == InternalErrorStatus)
    std::abort();
  return 0;
}
