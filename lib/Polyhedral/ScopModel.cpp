//===- ScopModel.cpp - Building the isl model of a stencil ----------------===//
#include "an5d/Polyhedral.h"

#include <map>

using namespace an5d;

namespace {

/// "S[t, i, j]" with the loop iterators as isl names.
std::string statementTuple(const Stencil &S) {
  std::string T = "S[" + islName(S.Time.Iter);
  for (const Loop &L : S.Space)
    T += ", " + islName(L.Iter);
  return T + "]";
}

std::string accessString(const Stencil &S, const std::string &Tuple,
                         const Access &A) {
  std::string Str = islParams(S.Params) + " -> { " + statementTuple(S) +
                    " -> " + Tuple + "[(" + islAffine(A.TimeBase) + ") mod " +
                    std::to_string(A.Modulus);
  for (const AffineExpr &X : A.Space)
    Str += ", " + islAffine(X);
  return Str + "] }";
}

std::string domainString(const Stencil &S) {
  std::string Str = islParams(S.Params) + " -> { " + statementTuple(S) + " : ";
  auto bound = [](const Loop &L) {
    return islAffine(L.Lower) + " <= " + islName(L.Iter) + " <= " +
           islAffine(L.Upper);
  };
  Str += bound(S.Time);
  for (const Loop &L : S.Space)
    Str += " and " + bound(L);
  return Str + " }";
}

/// [P] -> { S[t, s...] -> c[x...] } for a coefficient read; for one
/// indexed by the time step, [P] -> { T[t] -> c[x...] : t in the time loop
/// as written } (two arrays in turn run two device steps per written one).
std::string coefAccessString(const Stencil &S, const CoefAccess &A) {
  const Loop &Written = S.timeLoopAsWritten();
  std::string Tuple =
      A.TimeIndexed ? "T[" + islName(Written.Iter) + "]" : statementTuple(S);
  std::string Str = islParams(S.Params) + " -> { " + Tuple + " -> " +
                    islName(S.CoefArrays[A.Array].Name) + "[";
  for (size_t D = 0; D < A.Index.size(); ++D) {
    AffineExpr E = AffineExpr::constant(A.Index[D].Offset);
    if (!A.Index[D].Iter.empty())
      E = E + AffineExpr::symbol(A.Index[D].Iter);
    Str += (D ? ", " : "") + islAffine(E);
  }
  if (A.TimeIndexed)
    return Str + "] : " + islAffine(Written.Lower) + " <= " +
           islName(Written.Iter) + " <= " + islAffine(Written.Upper) + " }";
  return Str + "] }";
}

/// [P] -> { c[x...] : 0 <= x < extent } (unknown extents unbounded above).
std::string coefExtentString(const Stencil &S, const ArrayInfo &A) {
  std::string Vars, Cons;
  for (size_t D = 0; D < A.Extents.size(); ++D) {
    std::string X = "x" + std::to_string(D);
    Vars += (D ? ", " : "") + X;
    Cons += (D ? " and " : "") + std::string("0 <= ") + X;
    if (A.Extents[D])
      Cons += " < " + islAffine(*A.Extents[D]);
  }
  return islParams(S.Params) + " -> { " + islName(A.Name) + "[" + Vars +
         "] : " + Cons + " }";
}

/// The declared extents; an unknown plane extent is taken as the planes
/// the accesses use, other unknown extents as unbounded above.
std::string extentString(const Stencil &S, const std::string &Tuple) {
  std::string Vars, Cons;
  for (size_t D = 0; D < S.Array.Extents.size(); ++D) {
    std::string X = "x" + std::to_string(D);
    Vars += (D ? ", " : "") + X;
    Cons += (D ? " and " : "") + std::string("0 <= ") + X;
    if (S.Array.Extents[D])
      Cons += " < " + islAffine(*S.Array.Extents[D]);
    else if (D == 0)
      Cons += " < " + std::to_string(S.Planes);
  }
  return islParams(S.Params) + " -> { " + Tuple + "[" + Vars + "] : " + Cons +
         " }";
}

std::string scheduleString(const Stencil &S) {
  std::string Dims = islName(S.Time.Iter);
  for (const Loop &L : S.Space)
    Dims += ", " + islName(L.Iter);
  return "{ " + statementTuple(S) + " -> [" + Dims + "] }";
}

/// Pairs of different cells of one step: { S[t, s] -> S[t, s'] : s != s' }.
std::string sameStepOtherCell(const Stencil &S) {
  std::string Src = "S[t", Dst = "S[t", Neq;
  for (size_t D = 0; D < S.Space.size(); ++D) {
    std::string A = "a" + std::to_string(D), B = "b" + std::to_string(D);
    Src += ", " + A;
    Dst += ", " + B;
    Neq += (D ? " or " : "") + A + " != " + B;
  }
  return "{ " + Src + "] -> " + Dst + "] : " + Neq + " }";
}

} // namespace

std::optional<ScopModel> an5d::buildScopModel(const Stencil &S, Diagnoser &D) {
  ScopModel M;
  M.Ctx = std::make_shared<IslContext>();
  isl::ctx C = M.Ctx->get();
  M.ArrayTuple = islName(S.Array.Name);
  try {
    M.Domain = isl::set(C, domainString(S));
    M.Write = isl::map(C, accessString(S, M.ArrayTuple, S.Write))
                  .intersect_domain(M.Domain);
    isl::union_map AllReads = isl::union_map(isl::map::empty(
        M.Write.get_space()));
    // Reads spelled alike share one relation: a sum of thousands of terms
    // over a few offsets costs isl as much as those few offsets.
    std::map<std::string, unsigned> FirstByText;
    for (const Access &A : S.Reads) {
      std::string Text = accessString(S, M.ArrayTuple, A);
      auto [It, New] = FirstByText.emplace(Text, M.Reads.size());
      M.SameAccessAs.push_back(It->second);
      if (!New) {
        M.Reads.push_back(M.Reads[It->second]);
        continue;
      }
      M.Reads.push_back(isl::map(C, Text).intersect_domain(M.Domain));
      AllReads = AllReads.unite(isl::union_map(M.Reads.back()));
    }
    for (const CoefAccess &A : S.CoefReads) {
      isl::map Read(C, coefAccessString(S, A));
      M.CoefReads.push_back(A.TimeIndexed ? Read
                                          : Read.intersect_domain(M.Domain));
    }
    for (const ArrayInfo &A : S.CoefArrays)
      M.CoefExtents.push_back(isl::set(C, coefExtentString(S, A)));
    M.Schedule = isl::map(C, scheduleString(S));
    M.Extent = isl::set(C, extentString(S, M.ArrayTuple));
    // One dataflow problem per read: isl's cost grows quickly with the
    // number of sinks solved together.
    M.Flow = isl::union_map(isl::map::empty(M.Schedule.get_space().domain().map_from_set()));
    for (unsigned R = 0; R < M.Reads.size(); ++R)
      if (M.SameAccessAs[R] == R)
        M.Flow = M.Flow.unite(flowInto(M, R));
    isl::union_map Accesses = AllReads.unite(isl::union_map(M.Write));
    isl::union_map Conflicts =
        isl::union_map(M.Write).apply_range(Accesses.reverse());
    M.SameStepConflicts =
        Conflicts.intersect(isl::union_map(isl::map(C, sameStepOtherCell(S))));
  } catch (const isl::exception &E) {
    D.error(Reject::Internal, S.NestRange,
            std::string("isl could not model this loop nest: ") + E.what());
    return std::nullopt;
  }
  return M;
}

isl::union_map an5d::flowInto(const ScopModel &M, unsigned ReadIndex) {
  return isl::union_access_info(isl::union_map(M.Reads[ReadIndex]))
      .set_must_source(isl::union_map(M.Write))
      .set_schedule_map(isl::union_map(M.Schedule))
      .compute_flow()
      .get_must_dependence();
}

void ScopModel::dump(llvm::raw_ostream &OS) const {
  OS << "scop\n";
  OS << "  domain: " << islStr(Domain) << "\n";
  OS << "  schedule: " << islStr(Schedule) << "\n";
  OS << "  write: " << islStr(Write) << "\n";
  OS << "  reads:\n";
  for (const isl::map &R : Reads)
    OS << "    " << islStr(R) << "\n";
  OS << "  extent: " << islStr(Extent) << "\n";
  if (!CoefReads.empty()) {
    OS << "  coefficient reads:\n";
    for (const isl::map &R : CoefReads)
      OS << "    " << islStr(R) << "\n";
    OS << "  coefficient extents:\n";
    for (const isl::set &E : CoefExtents)
      OS << "    " << islStr(E) << "\n";
  }
  OS << "  flow: " << islStr(Flow) << "\n";
  OS << "  flow distances: " << islStr(Flow.deltas().coalesce()) << "\n";
  OS << "  same-step conflicts: " << islStr(SameStepConflicts) << "\n";
}

// --- Several fields ----------------------------------------------------------

namespace {

/// "S2[t, i, j]": statement Q's tuple with its time and nest iterators.
std::string fieldTuple(const Stencil &S, unsigned Q) {
  std::string T = "S" + std::to_string(Q) + "[" + islName(S.Time.Iter);
  for (const Loop &L : S.FieldStatements[Q].Loops)
    T += ", " + islName(L.Iter);
  return T + "]";
}

std::string fieldAccessString(const Stencil &S, unsigned Q, const Access &A) {
  const FieldInfo &F = S.Fields[A.Field];
  std::string Str = islParams(S.Params) + " -> { " + fieldTuple(S, Q) +
                    " -> " + islName(F.Array.Name) + "[";
  std::string Sep;
  if (F.Planes == 2) {
    Str += "(" + islAffine(A.TimeBase) + ") mod 2";
    Sep = ", ";
  }
  for (const AffineExpr &X : A.Space) {
    Str += Sep + islAffine(X);
    Sep = ", ";
  }
  return Str + "] }";
}

std::string fieldDomainString(const Stencil &S, unsigned Q) {
  auto bound = [](const Loop &L) {
    return islAffine(L.Lower) + " <= " + islName(L.Iter) + " <= " +
           islAffine(L.Upper);
  };
  std::string Str = islParams(S.Params) + " -> { " + fieldTuple(S, Q) +
                    " : " + bound(S.Time);
  for (const Loop &L : S.FieldStatements[Q].Loops)
    Str += " and " + bound(L);
  return Str + " }";
}

std::string fieldScheduleString(const Stencil &S, unsigned Q) {
  const FieldStatement &F = S.FieldStatements[Q];
  std::string Str = "{ " + fieldTuple(S, Q) + " -> [" + islName(S.Time.Iter) +
                    ", " + std::to_string(F.Nest);
  for (size_t D = 0; D < 3; ++D)
    Str += ", " + (D < F.Loops.size() ? islName(F.Loops[D].Iter)
                                      : std::string("0"));
  return Str + ", " + std::to_string(Q) + "] }";
}

} // namespace

isl::union_map an5d::nestConflicts(const Stencil &S, const FieldsModel &M,
                                   unsigned P, unsigned Q,
                                   const isl::map &Access) {
  const FieldStatement &FP = S.FieldStatements[P];
  isl::ctx C = M.Ctx->get();
  // One iteration per step: no two differ.
  size_t Loops = FP.Loops.size();
  if (Loops == 0)
    return isl::union_map::empty(C);
  // { Sp[t, a...] -> Sq[t, b...] : a != b }
  std::string Src = "S" + std::to_string(P) + "[t",
              Dst = "S" + std::to_string(Q) + "[t", Neq;
  for (size_t D = 0; D < Loops; ++D) {
    std::string A = "a" + std::to_string(D), B = "b" + std::to_string(D);
    Src += ", " + A;
    Dst += ", " + B;
    Neq += (D ? " or " : "") + A + " != " + B;
  }
  isl::union_map Other(C, "{ " + Src + "] -> " + Dst + "] : " + Neq + " }");
  // { Sp[...] -> Sq[...] } meeting at an element Sp writes (empty when
  // Access is of another array).
  isl::union_map Meet = isl::union_map(M.Writes[P]).apply_range(
      isl::union_map(Access).reverse());
  return Meet.intersect(Other);
}

std::optional<FieldsModel> an5d::buildFieldsModel(const Stencil &S,
                                                  Diagnoser &D) {
  FieldsModel M;
  M.Ctx = std::make_shared<IslContext>();
  isl::ctx C = M.Ctx->get();
  try {
    unsigned N = S.FieldStatements.size();
    M.Reads.resize(S.Reads.size());
    M.Schedule = isl::union_map::empty(C);
    for (unsigned Q = 0; Q < N; ++Q) {
      const FieldStatement &F = S.FieldStatements[Q];
      M.Domains.push_back(isl::set(C, fieldDomainString(S, Q)));
      M.Writes.push_back(isl::map(C, fieldAccessString(S, Q, F.Write))
                             .intersect_domain(M.Domains.back()));
      for (unsigned R = F.FirstRead; R < F.EndRead; ++R)
        M.Reads[R] = isl::map(C, fieldAccessString(S, Q, S.Reads[R]))
                         .intersect_domain(M.Domains.back());
      M.Schedule = M.Schedule.unite(
          isl::union_map(isl::map(C, fieldScheduleString(S, Q))));
    }
    M.NestConflicts = isl::union_map::empty(C);
    for (unsigned P = 0; P < N; ++P)
      for (unsigned Q = 0; Q < N; ++Q) {
        const FieldStatement &FQ = S.FieldStatements[Q];
        if (S.FieldStatements[P].Nest != FQ.Nest)
          continue;
        M.NestConflicts =
            M.NestConflicts.unite(nestConflicts(S, M, P, Q, M.Writes[Q]));
        for (unsigned R = FQ.FirstRead; R < FQ.EndRead; ++R)
          M.NestConflicts =
              M.NestConflicts.unite(nestConflicts(S, M, P, Q, M.Reads[R]));
      }
    M.NestConflicts = M.NestConflicts.coalesce();
  } catch (const isl::exception &E) {
    D.error(Reject::Internal, S.NestRange,
            std::string("isl could not model this time step: ") + E.what());
    return std::nullopt;
  }
  return M;
}

void FieldsModel::dump(const Stencil &S, llvm::raw_ostream &OS) const {
  OS << "scop (several fields)\n";
  for (size_t Q = 0; Q < Domains.size(); ++Q) {
    const FieldStatement &F = S.FieldStatements[Q];
    OS << "  statement " << Q << ":\n";
    OS << "    domain: " << islStr(Domains[Q]) << "\n";
    OS << "    write: " << islStr(Writes[Q]) << "\n";
    for (unsigned R = F.FirstRead; R < F.EndRead; ++R)
      OS << "    read: " << islStr(Reads[R]) << "\n";
  }
  OS << "  schedule: " << islStr(Schedule) << "\n";
  OS << "  same-nest conflicts: " << islStr(NestConflicts) << "\n";
}
