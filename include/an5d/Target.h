//===- an5d/Target.h - The GPU a file is planned and built for ------------===//
//
// The hardware limits the plan checks (threads, registers, shared memory per
// block and per SM), the -arch the build line names and the figures the
// performance model's occupancy reads: one description per GPU, chosen by
// --gpu. The model's DeviceSpec adds its performance figures to one.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_TARGET_H
#define AN5D_TARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace an5d {

struct Target {
  std::string Name;     // what --gpu takes: "H100"
  std::string FullName; // "NVIDIA H100 80GB HBM3"
  /// Compute capability as nvcc's -arch writes it: 90 for sm_90.
  int64_t ComputeCapability = 0;
  int64_t SMs = 0;
  int64_t RegistersPerSM = 0;
  int64_t MaxRegistersPerThread = 0;
  /// A thread's registers are allocated in units of this many (a warp's
  /// in units of 32 times as many).
  int64_t RegisterUnit = 0;
  int64_t ThreadsPerSM = 0;
  int64_t MaxThreadsPerBlock = 0;
  int64_t MaxBlocksPerSM = 0;
  int64_t SharedPerSM = 0; // bytes usable by blocks
  /// Most dynamic shared memory per block, with the opt-in above
  /// DefaultSharedPerBlock.
  int64_t SharedPerBlock = 0;
  /// Dynamic shared memory per block without cudaFuncSetAttribute.
  int64_t DefaultSharedPerBlock = 0;
  /// Most blocks along a launch's x, and along its y and z: the generated
  /// host code launches larger grids in parts.
  int64_t MaxGridX = 0;
  int64_t MaxGridYZ = 0;

  /// "sm_90": what -arch= names.
  std::string arch() const;
  /// Whether the cp.async instructions (and so an5dc's vector-cell copies)
  /// exist: sm_80 and newer.
  bool hasAsyncCopy() const { return ComputeCapability >= 80; }
  /// One line: "target: sm_90 (H100), 132 SMs, ...".
  void dump(llvm::raw_ostream &OS) const;
};

/// The GPUs an5dc plans for, the default (H100) first.
const std::vector<Target> &targetTable();
/// The target named Name (case-insensitive, "NVIDIA " optional), or null.
const Target *findTarget(llvm::StringRef Name);
/// What an5dc plans for without --gpu: targetTable().front().
const Target &defaultTarget();

} // namespace an5d

#endif
