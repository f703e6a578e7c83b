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

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace an5d {

/// What the user asked for on the command line.
struct PlanOptions {
  int64_t BT = 4;            // degree of temporal blocking (-bT)
  /// -bS as given: X[,Y], X along the innermost (contiguous) dimension.
  /// Empty: the default (128 in 2D, 32x32 in 3D).
  std::vector<int64_t> BS;
  int64_t StreamBlock = 128; // rows of the streaming dimension per block (--sl)
};

/// One kernel: advances Degree time steps per launch.
struct KernelPlan {
  int64_t Degree = 1;
  /// Output columns per block in each blocked dimension (array order,
  /// streaming dimension excluded): BS[d] - Degree * (lo + hi).
  std::vector<int64_t> Tile;
  /// Rows of the streaming loop unrolled in the kernel body: the period of
  /// the register ring and of the shared buffer parity.
  int64_t Unroll = 1;
};

struct Plan {
  unsigned Dims = 2;
  ElemType Elem = ElemType::Float;
  int64_t BT = 4;
  /// Threads per block in each blocked dimension, array order (j[, k]).
  std::vector<int64_t> BS;
  int64_t StreamBlock = 128;
  /// Reach per dimension (streaming first), copied from the analysis.
  std::vector<int64_t> Lo, Hi;
  /// Rows of one level kept in registers: lo_0 + hi_0 + 1.
  int64_t Ring = 3;
  /// Streaming offsets whose row is read at another column: those rows go
  /// through shared memory (sorted). Empty: no shared memory at all.
  std::vector<int64_t> SharedRows;
  /// Padded shared plane: BS[d] + lo_d + hi_d per blocked dimension.
  std::vector<int64_t> SharedExtent;
  int64_t SharedPlaneCells = 0; // product of SharedExtent
  int64_t SharedBytes = 0;      // 2 buffers * SharedRows * plane * elem
  int64_t Threads = 0;
  std::vector<KernelPlan> Kernels; // degree 1 .. BT
  int64_t WriteShift = 1;

  /// Row index of streaming offset Off in the shared buffer, or -1.
  int64_t sharedRowOf(int64_t Off) const;
  void dump(llvm::raw_ostream &OS) const;
};

/// Largest dynamic shared memory per block an5dc plans for (sm_90 opt-in).
constexpr int64_t MaxSharedBytes = 227 * 1024;
/// Above this the host code must opt in with cudaFuncSetAttribute.
constexpr int64_t DefaultSharedBytes = 48 * 1024;

/// Entry point of stage 4: the plan, or an empty Error string with the
/// plan filled. On failure returns false and sets Error to a message.
bool makePlan(const Stencil &S, const StencilAnalysis &A,
              const PlanOptions &Opts, Plan &P, std::string &Error);

} // namespace an5d

#endif
