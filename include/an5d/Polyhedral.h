//===- an5d/Polyhedral.h - The stencil as an isl model -------------------===//
//
// Stage 2. Iteration domain, access relations, schedule and dependences of
// the stencil statement S, with one parameter per symbolic size.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_POLYHEDRAL_H
#define AN5D_POLYHEDRAL_H

#include "an5d/Diagnostics.h"
#include "an5d/IslTools.h"
#include "an5d/Stencil.h"

#include <memory>
#include <optional>
#include <vector>

namespace an5d {

struct ScopModel {
  std::shared_ptr<IslContext> Ctx; // first member: outlives the objects below
  std::string ArrayTuple;          // the array's isl tuple name
  // [P] -> { S[t, s0, s1] : bounds }
  isl::set Domain;
  // [P] -> { S[t, s0, s1] -> A[(t + k) mod 2, s0, s1] }, domain-restricted
  isl::map Write;
  // [P] -> { S[t, s0, s1] -> A[...] }, one per Stencil::Reads entry
  std::vector<isl::map> Reads;
  // Per read: the first read with the same access relation (its own index
  // when it is the first); later stages check such a relation once.
  std::vector<unsigned> SameAccessAs;
  // [P] -> { S[t, s0, s1] -> c[...] }, one per Stencil::CoefReads entry
  // (c: the coefficient array's tuple), domain-restricted; a read indexed
  // by the time step: [P] -> { T[t] -> c[...] : t in the written loop }
  std::vector<isl::map> CoefReads;
  // [P] -> { c[x0, ...] : within the declared extents }, one per
  // Stencil::CoefArrays entry (an unknown extent: unbounded above)
  std::vector<isl::set> CoefExtents;
  // { S[t, s0, s1] -> [t, s0, s1] }
  isl::map Schedule;
  // [P] -> { A[p, x0, x1] : within the declared extents }
  isl::set Extent;
  // Value-based flow: [P] -> { S[source] -> S[sink] }
  isl::union_map Flow;
  // Memory conflicts between different cells of one step:
  // [P] -> { S[t, s] -> S[t, s'] : s != s' } (empty for a Jacobi stencil)
  isl::union_map SameStepConflicts;

  void dump(llvm::raw_ostream &OS) const;
};

/// Entry point of stage 2. Fails only on an internal isl error (reported).
std::optional<ScopModel> buildScopModel(const Stencil &S, Diagnoser &D);

/// Flow dependences into one read: [P] -> { S[source] -> S[sink] }.
isl::union_map flowInto(const ScopModel &M, unsigned ReadIndex);

} // namespace an5d

#endif
