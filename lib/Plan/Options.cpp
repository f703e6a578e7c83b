//===- Options.cpp - The ranges of the planning options --------------------===//
#include "an5d/Plan.h"

#include <cassert>

using namespace an5d;

/// The user's -bS (X first), one size repeated in 3D, or the default.
static std::vector<int64_t> userBlockSizesOf(const PlanOptions &Opts,
                                             unsigned Dims) {
  unsigned Blocked = Dims - 1;
  std::vector<int64_t> User = Opts.BS;
  if (User.empty())
    User.assign(Blocked, Dims == 2 ? 128 : 32);
  else if (User.size() == 1 && Blocked == 2)
    User.push_back(User[0]);
  return User;
}

std::vector<int64_t> an5d::planBlockSizes(const PlanOptions &Opts,
                                          unsigned Dims) {
  std::vector<int64_t> User = userBlockSizesOf(Opts, Dims);
  assert(User.size() == Dims - 1 && "checkOptions accepted the count");
  // The user lists X (innermost) first; the plan keeps array order.
  return std::vector<int64_t>(User.rbegin(), User.rend());
}

std::optional<PlanError> an5d::checkOptions(const PlanOptions &Opts,
                                            unsigned Dims, ElemType Elem,
                                            unsigned UserDims) {
  using Kind = PlanError::Kind;
  auto error = [](Kind K, const char *Option, std::string Message) {
    return std::optional<PlanError>(
        PlanError{K, Option, std::move(Message), {}});
  };
  const int64_t MaxBlocks = Opts.Gpu.MaxBlocksPerSM;
  if (Opts.MinBlocks && (*Opts.MinBlocks < 1 || *Opts.MinBlocks > MaxBlocks))
    return error(Kind::OutOfRange, "--min-blocks",
                 "--min-blocks " + std::to_string(*Opts.MinBlocks) +
                     " is out of range; use 1 to " +
                     std::to_string(MaxBlocks) + " blocks per SM");
  if (Opts.Run == Scheme::Naive)
    return std::nullopt;
  if (Opts.Prefetch && (*Opts.Prefetch < 0 || *Opts.Prefetch > MaxPrefetch))
    return error(Kind::OutOfRange, "--prefetch",
                 "--prefetch " + std::to_string(*Opts.Prefetch) +
                     " is out of range; level 0 can be read 0 to " +
                     std::to_string(MaxPrefetch) + " rows ahead");
  if (Opts.BT < 1 || Opts.BT > 32)
    return error(Kind::OutOfRange, "-bT",
                 "-bT " + std::to_string(Opts.BT) +
                     " is out of range; the degree of temporal blocking "
                     "must be between 1 and 32");
  if (Opts.StreamBlock < 1)
    return error(Kind::OutOfRange, "--sl",
                 "--sl " + std::to_string(Opts.StreamBlock) +
                     " is out of range; the stream block needs at least 1 "
                     "row");
  unsigned Blocked = Dims - 1;
  std::vector<int64_t> User = userBlockSizesOf(Opts, Dims);
  if (User.size() != Blocked)
    return error(Kind::Count, "-bS",
                 "-bS takes " +
                     std::string(Blocked == 1 ? "one size"
                                              : "one or two sizes (X,Y)") +
                     " for a " + std::to_string(UserDims ? UserDims : Dims) +
                     "D stencil, got " +
                     std::to_string(User.size()));
  if (Opts.Cells < 1 || Opts.Cells > MaxCells)
    return error(Kind::OutOfRange, "--cells",
                 "--cells " + std::to_string(Opts.Cells) +
                     " is out of range; a thread computes 1 to " +
                     std::to_string(MaxCells) + " cells");
  if (Opts.VecK < 1 || Opts.VecK * elemTypeBytes(Elem) > MaxVectorBytes)
    return error(Kind::OutOfRange, "--kvec",
                 "--kvec " + std::to_string(Opts.VecK) +
                     " is out of range; a vector of cells is at most 16 "
                     "bytes (--kvec 4 for float, 2 for double; 1: off)");
  for (int64_t B : User)
    if (B < 1)
      return error(Kind::OutOfRange, "-bS",
                   "-bS " + userBlockSizes(planBlockSizes(Opts, Dims)) +
                       ": block sizes must be positive");
  return std::nullopt;
}
