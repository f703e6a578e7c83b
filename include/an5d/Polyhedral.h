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

/// The isl model of a time step of several fields (StencilForm::Fields):
/// statement q is Sq with its time loop and nest loops.
struct FieldsModel {
  std::shared_ptr<IslContext> Ctx; // first member: outlives the objects below
  // Per statement: [P] -> { Sq[t, l0, ...] : the time loop and its nest }
  std::vector<isl::set> Domains;
  // Per statement: [P] -> { Sq[t, l...] -> F[(t + k) mod 2, x...] }, or
  // F[x...] for a field updated in place; domain-restricted
  std::vector<isl::map> Writes;
  // Per Stencil::Reads entry, the same form
  std::vector<isl::map> Reads;
  // { Sq[t, l...] -> [t, nest, l0, l1, l2, q] }: program order (loops
  // padded with 0 to three)
  isl::union_map Schedule;
  // Pairs of iterations of one nest in one step that touch one element,
  // at least one writing it: [P] -> { Sp[t, l] -> Sq[t, l'] : l != l' }.
  // C runs them in loop order, a kernel in parallel: empty when legal.
  isl::union_map NestConflicts;

  void dump(const Stencil &S, llvm::raw_ostream &OS) const;
};

/// Stage 2 for several fields. Fails only on an internal isl error.
std::optional<FieldsModel> buildFieldsModel(const Stencil &S, Diagnoser &D);

/// The iterations of one nest, in one step, that Write (of statement P)
/// and Access (of statement Q, the same nest) meet at one element from
/// different iterations: [P] -> { Sp[t, l] -> Sq[t, l'] : l != l' }.
isl::union_map nestConflicts(const Stencil &S, const FieldsModel &M,
                             unsigned P, unsigned Q, const isl::map &Access);

/// Entry point of stage 2. Fails only on an internal isl error (reported).
std::optional<ScopModel> buildScopModel(const Stencil &S, Diagnoser &D);

/// Flow dependences into one read: [P] -> { S[source] -> S[sink] }.
isl::union_map flowInto(const ScopModel &M, unsigned ReadIndex);

} // namespace an5d

#endif
