//===- Plan.cpp - Blocking parameters and kernel shapes ------------------===//
#include "an5d/Plan.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

using namespace an5d;

int64_t Plan::sharedRowOf(int64_t Off) const {
  for (size_t I = 0; I < SharedRows.size(); ++I)
    if (SharedRows[I] == Off)
      return int64_t(I);
  return -1;
}

static std::string joinX(const std::vector<int64_t> &V) {
  std::string S;
  for (size_t I = 0; I < V.size(); ++I)
    S += (I ? "x" : "") + std::to_string(V[I]);
  return S;
}

/// Block sizes as the user writes them: innermost dimension first.
static std::string userBS(const std::vector<int64_t> &BS) {
  std::vector<int64_t> R(BS.rbegin(), BS.rend());
  std::string S;
  for (size_t I = 0; I < R.size(); ++I)
    S += (I ? "," : "") + std::to_string(R[I]);
  return S;
}

bool an5d::makePlan(const Stencil &S, const StencilAnalysis &A,
                    const PlanOptions &Opts, Plan &P, std::string &Error) {
  P = Plan();
  P.Dims = S.numSpaceDims();
  P.Elem = S.Elem;
  P.Lo = A.ReachLo;
  P.Hi = A.ReachHi;
  P.WriteShift = A.WriteShift;
  if (Opts.BT < 1 || Opts.BT > 32) {
    Error = "-bT " + std::to_string(Opts.BT) +
            " is out of range; the degree of temporal blocking must be "
            "between 1 and 32";
    return false;
  }
  P.BT = Opts.BT;
  if (Opts.StreamBlock < 1) {
    Error = "--sl " + std::to_string(Opts.StreamBlock) +
            " is out of range; the stream block needs at least 1 row";
    return false;
  }
  P.StreamBlock = Opts.StreamBlock;

  unsigned Blocked = P.Dims - 1;
  // The user lists X (innermost) first; the plan keeps array order.
  std::vector<int64_t> User = Opts.BS;
  if (User.empty())
    User.assign(Blocked, P.Dims == 2 ? 128 : 32);
  else if (User.size() == 1 && Blocked == 2)
    User.push_back(User[0]);
  if (User.size() != Blocked) {
    Error = "-bS takes " + std::string(Blocked == 1 ? "one size" :
                                       "one or two sizes (X,Y)") +
            " for a " + std::to_string(P.Dims) + "D stencil, got " +
            std::to_string(User.size());
    return false;
  }
  P.BS.assign(User.rbegin(), User.rend());
  P.Threads = 1;
  for (unsigned D = 0; D < Blocked; ++D) {
    int64_t Reach = P.Lo[D + 1] + P.Hi[D + 1];
    if (P.BS[D] < 1) {
      Error = "-bS " + userBS(P.BS) + ": block sizes must be positive";
      return false;
    }
    if (P.BS[D] <= P.BT * Reach) {
      std::string Which = Blocked == 1 ? "" : (D + 1 == Blocked ? " along X"
                                                                : " along Y");
      Error = "-bS " + userBS(P.BS) + " is too small for -bT " +
              std::to_string(P.BT) + ": a block of " +
              std::to_string(P.BS[D]) + " threads" + Which +
              " loses " + std::to_string(P.BT * Reach) +
              " columns to the halo (bT * reach " + std::to_string(Reach) +
              ") and keeps none; use -bS larger than " +
              std::to_string(P.BT * Reach) + " or a smaller -bT";
      return false;
    }
    P.Threads *= P.BS[D];
  }
  if (P.Threads > 1024) {
    Error = "-bS " + userBS(P.BS) + " makes blocks of " +
            std::to_string(P.Threads) +
            " threads; CUDA allows at most 1024 threads per block, use a "
            "smaller -bS";
    return false;
  }

  P.Ring = P.Lo[0] + P.Hi[0] + 1;
  std::set<int64_t> Rows;
  for (const std::vector<int64_t> &O : A.Offsets) {
    bool OwnColumn = true;
    for (unsigned D = 1; D < P.Dims; ++D)
      OwnColumn = OwnColumn && O[D] == 0;
    if (!OwnColumn)
      Rows.insert(O[0]);
  }
  P.SharedRows.assign(Rows.begin(), Rows.end());
  P.SharedPlaneCells = 1;
  for (unsigned D = 0; D < Blocked; ++D) {
    P.SharedExtent.push_back(P.BS[D] + P.Lo[D + 1] + P.Hi[D + 1]);
    P.SharedPlaneCells *= P.SharedExtent.back();
  }
  P.SharedBytes = 2 * int64_t(P.SharedRows.size()) * P.SharedPlaneCells *
                  elemTypeBytes(P.Elem);
  if (P.SharedBytes > MaxSharedBytes) {
    Error = "-bS " + userBS(P.BS) + " needs " +
            std::to_string(P.SharedBytes) +
            " bytes of shared memory per block (2 buffers of " +
            std::to_string(P.SharedRows.size()) + " rows of " +
            joinX(P.SharedExtent) + " " + elemTypeName(P.Elem) +
            "); the limit is " + std::to_string(MaxSharedBytes) +
            " bytes (227 KiB), use a smaller -bS";
    return false;
  }

  for (int64_t Deg = 1; Deg <= P.BT; ++Deg) {
    KernelPlan K;
    K.Degree = Deg;
    for (unsigned D = 0; D < Blocked; ++D)
      K.Tile.push_back(P.BS[D] - Deg * (P.Lo[D + 1] + P.Hi[D + 1]));
    bool Parity = !P.SharedRows.empty() && Deg % 2 == 1;
    K.Unroll = Parity ? std::lcm(P.Ring, int64_t(2)) : P.Ring;
    P.Kernels.push_back(K);
  }
  return true;
}

void Plan::dump(llvm::raw_ostream &OS) const {
  OS << "plan\n";
  OS << "  dimensions: " << Dims << " (streaming along dimension 0)\n";
  OS << "  element type: " << elemTypeName(Elem) << "\n";
  OS << "  bT: " << BT << "\n";
  OS << "  bS: " << userBS(BS) << " (threads per block: " << Threads
     << ")\n";
  OS << "  stream block (hSN): " << StreamBlock << " rows\n";
  OS << "  reach:";
  for (unsigned D = 0; D < Dims; ++D)
    OS << " [-" << Lo[D] << ", +" << Hi[D] << "]";
  OS << "\n  register ring: " << Ring << " rows per level\n";
  OS << "  shared rows: " << SharedRows.size() << " (streaming offsets:";
  for (int64_t R : SharedRows)
    OS << " " << R;
  OS << "), padded plane " << joinX(SharedExtent) << ", 2 buffers, "
     << SharedBytes << " bytes\n";
  OS << "  write plane: (t + " << WriteShift << ") % 2\n";
  for (const KernelPlan &K : Kernels)
    OS << "  degree " << K.Degree << ": tile " << joinX(K.Tile) << " x "
       << StreamBlock << " rows, unrolled by " << K.Unroll << " rows\n";
}
