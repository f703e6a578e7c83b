//===- Target.cpp - The GPUs an5dc plans and builds for -------------------===//
#include "an5d/Target.h"

using namespace an5d;

namespace {

/// A GPU of compute capability CC: the limits every architecture since
/// sm_60 shares (CUDA C++ Programming Guide, "Technical Specifications per
/// Compute Capability"), with its SM count and shared-memory sizes.
Target make(const char *Name, const char *Full, int64_t CC, int64_t SMs,
            int64_t SharedPerSM, int64_t SharedPerBlock) {
  const int64_t KiB = 1024;
  Target T;
  T.Name = Name;
  T.FullName = Full;
  T.ComputeCapability = CC;
  T.SMs = SMs;
  T.RegistersPerSM = 64 * KiB;
  T.MaxRegistersPerThread = 255;
  T.RegisterUnit = 8;
  T.ThreadsPerSM = 2048;
  T.MaxThreadsPerBlock = 1024;
  T.MaxBlocksPerSM = 32;
  T.SharedPerSM = SharedPerSM;
  T.SharedPerBlock = SharedPerBlock;
  T.DefaultSharedPerBlock = 48 * KiB;
  T.MaxGridX = 2147483647;
  T.MaxGridYZ = 65535;
  return T;
}

std::vector<Target> buildTable() {
  const int64_t KiB = 1024;
  return {
      make("H100", "NVIDIA H100 80GB HBM3", 90, 132, 228 * KiB, 227 * KiB),
      make("H200", "NVIDIA H200", 90, 132, 228 * KiB, 227 * KiB),
      make("A100", "NVIDIA A100-SXM4-80GB", 80, 108, 164 * KiB, 163 * KiB),
      make("V100", "Tesla V100-SXM2", 70, 80, 96 * KiB, 96 * KiB),
      make("P100", "Tesla P100-SXM2", 60, 56, 64 * KiB, 48 * KiB),
  };
}

} // namespace

std::string Target::arch() const {
  return "sm_" + std::to_string(ComputeCapability);
}

void Target::dump(llvm::raw_ostream &OS) const {
  OS << "target: " << arch() << " (" << Name << "), " << SMs << " SMs, "
     << RegistersPerSM << " registers per SM (at most "
     << MaxRegistersPerThread << " per thread), " << ThreadsPerSM
     << " threads and " << MaxBlocksPerSM << " blocks per SM, "
     << MaxThreadsPerBlock << " threads per block, shared memory "
     << SharedPerSM / 1024 << " KiB per SM, " << SharedPerBlock / 1024
     << " KiB per block (" << DefaultSharedPerBlock / 1024
     << " KiB without opt-in)\n";
}

const std::vector<Target> &an5d::targetTable() {
  static const std::vector<Target> Table = buildTable();
  return Table;
}

const Target *an5d::findTarget(llvm::StringRef Name) {
  Name = Name.trim();
  if (Name.size() > 7 && Name.take_front(7).equals_insensitive("nvidia "))
    Name = Name.drop_front(7).ltrim();
  for (const Target &T : targetTable())
    if (Name.equals_insensitive(T.Name))
      return &T;
  return nullptr;
}

const Target &an5d::defaultTarget() { return targetTable().front(); }
