//===- FieldsAnalysis.cpp - Several fields: offsets and legality ----------===//
//
// A time step of several fields runs statement after statement, each over
// its whole nest before the next (the kernels compute a nest's cells in
// parallel). That is the C loop's result exactly when no two iterations
// of one nest meet at an element in one step with one of them writing it:
// then each iteration sees the same values in any order. isl finds such
// meetings (FieldsModel::NestConflicts); each is refused at its access.
//
//===----------------------------------------------------------------------===//
#include "an5d/Analysis.h"

using namespace an5d;

namespace {

std::string tuple(const Stencil &S, unsigned Q, const char *Prefix) {
  std::string T = "S" + std::to_string(Q) + "[t";
  for (size_t D = 0; D < S.FieldStatements[Q].Loops.size(); ++D)
    T += ", " + std::string(Prefix) + std::to_string(D);
  return T + "]";
}

class FieldsAnalyzer {
public:
  FieldsAnalyzer(const Stencil &S, const FieldsModel &M, Diagnoser &D)
      : S(S), M(M), D(D), C(M.Ctx->get()) {}

  std::optional<FieldsAnalysis> run() {
    A.Dims = S.GridDims;
    try {
      if (!checkNests() || !checkBounds())
        return std::nullopt;
      offsets();
      writtenEarlier();
    } catch (const isl::exception &E) {
      D.error(Reject::Internal, S.NestRange,
              std::string("isl could not analyse this time step: ") +
                  E.what());
      return std::nullopt;
    }
    return std::move(A);
  }

private:
  const std::string &fieldName(const Access &X) const {
    return S.Fields[X.Field].Array.Name;
  }

  /// Every access of a nest's statements against every write of the nest.
  bool checkNests() {
    for (unsigned Q = 0; Q < S.FieldStatements.size(); ++Q) {
      const FieldStatement &FQ = S.FieldStatements[Q];
      for (unsigned P = 0; P < S.FieldStatements.size(); ++P) {
        const FieldStatement &FP = S.FieldStatements[P];
        if (FP.Nest != FQ.Nest)
          continue;
        if (P != Q &&
            !nestConflicts(S, M, P, Q, M.Writes[Q]).is_empty()) {
          D.error(Reject::GaussSeidel, FQ.Write.Range,
                  "this write meets elements of '" + fieldName(FQ.Write) +
                      "' that statement " + std::to_string(P) +
                      " of the same loop nest writes in other iterations; "
                      "C's loop order decides which value stays, which "
                      "cells computed in parallel cannot reproduce: give "
                      "each statement its own loop nest");
          D.note(FP.Range, "the other write is here");
          return false;
        }
        for (unsigned R = FQ.FirstRead; R < FQ.EndRead; ++R) {
          if (nestConflicts(S, M, P, Q, M.Reads[R]).is_empty())
            continue;
          const Access &X = S.Reads[R];
          if (P == Q)
            D.error(Reject::GaussSeidel, X.Range,
                    "this read meets elements of '" + fieldName(X) +
                        "' that its own statement writes in other "
                        "iterations of the loop nest: C reads this step's "
                        "values where the loops have passed and the "
                        "previous step's where they have not (Gauss-Seidel "
                        "order), which cells computed in parallel cannot "
                        "reproduce; read a copy of the previous step (a "
                        "plane index, '" + fieldName(X) + "[(" +
                        S.Time.Iter + " + 1) % 2]' written from '" +
                        fieldName(X) + "[" + S.Time.Iter + " % 2]', or a "
                        "second array)");
          else
            D.error(Reject::GaussSeidel, X.Range,
                    "this read meets elements of '" + fieldName(X) +
                        "' that statement " + std::to_string(P) +
                        " of the same loop nest writes in other iterations: "
                        "C reads some of them before and some after they "
                        "are written, which cells computed in parallel "
                        "cannot reproduce; give each statement its own loop "
                        "nest, or read only the element the other statement "
                        "writes in the same iteration");
          if (P != Q)
            D.note(FP.Range, "the write is here");
          return false;
        }
      }
    }
    return true;
  }

  /// [P] -> { F[p, x...] : inside the declared extents }
  isl::set extent(const FieldInfo &F) {
    std::string Vars, Cons;
    for (size_t Dm = 0; Dm < F.Array.Extents.size(); ++Dm) {
      std::string X = "x" + std::to_string(Dm);
      Vars += (Dm ? ", " : "") + X;
      Cons += (Dm ? " and " : "") + std::string("0 <= ") + X;
      // A pointer's first extent is the rows accessed: no upper bound.
      if (F.Array.Extents[Dm])
        Cons += " < " + islAffine(*F.Array.Extents[Dm]);
    }
    return isl::set(C, islParams(S.Params) + " -> { " +
                           islName(F.Array.Name) + "[" + Vars + "] : " +
                           Cons + " }");
  }

  /// An access outside its field for every size is an error; for some
  /// sizes a warning and a note.
  bool checkAccess(const isl::map &Access, const an5d::Access &Src,
                   unsigned Q, bool IsWrite) {
    const FieldInfo &F = S.Fields[Src.Field];
    isl::set Outside = Access.range().subtract(extent(F));
    std::string What = IsWrite ? "write" : "read";
    isl::set Sizes = M.Domains[Q].params();
    if (!Outside.is_empty()) {
      if (Sizes.is_subset(Outside.params())) {
        D.error(Reject::OutOfBounds, Src.Range,
                "this " + What + " is outside the field '" + F.Array.Name +
                    "' at some cell of its loop nest; shrink the loop "
                    "bounds by the reach or enlarge the array");
        D.note(F.Array.DeclRange, "'" + F.Array.Name + "' is declared here");
        return false;
      }
      std::string When = islStr(Outside.params());
      D.warning(Src.Range, "cannot prove this " + What + " stays inside '" +
                               F.Array.Name + "' for every size (for " +
                               When + ")");
      A.BoundsNotes.push_back(What + " " + Src.str(F.Array.Name) +
                              " may be outside for " + When);
    }
    // C's '%' keeps the sign: a negative t + k indexes before the array.
    if (F.Planes == 2 && Src.SignedRemainder) {
      std::string Tuple = "S" + std::to_string(Q) + "[" + islName(S.Time.Iter);
      for (const Loop &L : S.FieldStatements[Q].Loops)
        Tuple += ", " + islName(L.Iter);
      // [P] -> { Sq[t, l...] : t + k < 0 }, within the statement's domain
      isl::set Negative =
          isl::set(C, islParams(S.Params) + " -> { " + Tuple + "] : " +
                          islAffine(Src.TimeBase) + " < 0 }")
              .intersect(M.Domains[Q]);
      if (!Negative.is_empty()) {
        D.error(Reject::OutOfBounds, Src.Range,
                "the plane index '(" + Src.TimeBase.str() +
                    ") % 2' is negative when " + Src.TimeBase.str() +
                    " < 0 (C's '%' keeps the sign), so this accesses memory "
                    "before '" + F.Array.Name + "'; start the time loop at "
                    "a value that keeps it non-negative, or use '& 1'");
        return false;
      }
    }
    return true;
  }

  bool checkBounds() {
    for (unsigned Q = 0; Q < S.FieldStatements.size(); ++Q) {
      const FieldStatement &F = S.FieldStatements[Q];
      if (!checkAccess(M.Writes[Q], F.Write, Q, true))
        return false;
      for (unsigned R = F.FirstRead; R < F.EndRead; ++R)
        if (!checkAccess(M.Reads[R], S.Reads[R], Q, false))
          return false;
    }
    return true;
  }

  void offsets() {
    A.ReadOffsets.resize(S.Reads.size());
    for (const FieldStatement &F : S.FieldStatements) {
      std::vector<int64_t> Lo(S.GridDims, 0), Hi(S.GridDims, 0);
      for (unsigned R = F.FirstRead; R < F.EndRead; ++R)
        for (unsigned Dm = 0; Dm < S.GridDims; ++Dm) {
          int64_t O = (S.Reads[R].Space[Dm] - F.Write.Space[Dm]).Constant;
          A.ReadOffsets[R].push_back(O);
          Lo[Dm] = std::max(Lo[Dm], -O);
          Hi[Dm] = std::max(Hi[Dm], O);
        }
      A.ReachLo.push_back(Lo);
      A.ReachHi.push_back(Hi);
    }
  }

  void writtenEarlier() {
    A.WrittenEarlier.resize(S.Reads.size());
    for (unsigned Q = 0; Q < S.FieldStatements.size(); ++Q) {
      const FieldStatement &FQ = S.FieldStatements[Q];
      for (unsigned P = 0; P < Q; ++P) {
        // { Sp[t, ...] -> Sq[t, ...] }: one step
        isl::union_map SameStep(C, "{ " + tuple(S, P, "a") + " -> " +
                                       tuple(S, Q, "b") + " }");
        for (unsigned R = FQ.FirstRead; R < FQ.EndRead; ++R) {
          isl::union_map Meet = isl::union_map(M.Writes[P]).apply_range(
              isl::union_map(M.Reads[R]).reverse());
          if (!Meet.intersect(SameStep).is_empty())
            A.WrittenEarlier[R].push_back(P);
        }
      }
    }
  }

  const Stencil &S;
  const FieldsModel &M;
  Diagnoser &D;
  isl::ctx C;
  FieldsAnalysis A;
};

} // namespace

std::optional<FieldsAnalysis> an5d::analyzeFields(const Stencil &S,
                                                  const FieldsModel &M,
                                                  Diagnoser &D) {
  return FieldsAnalyzer(S, M, D).run();
}

void FieldsAnalysis::dump(const Stencil &S, llvm::raw_ostream &OS) const {
  OS << "analysis (several fields)\n";
  OS << "  dimensions: " << Dims << "\n";
  for (size_t Q = 0; Q < S.FieldStatements.size(); ++Q) {
    const FieldStatement &F = S.FieldStatements[Q];
    OS << "  statement " << Q << " writes "
       << S.Fields[F.Field].Array.Name << "; reach below/above:";
    for (unsigned Dm = 0; Dm < Dims; ++Dm)
      OS << " " << ReachLo[Q][Dm] << "/" << ReachHi[Q][Dm];
    OS << "\n";
    for (unsigned R = F.FirstRead; R < F.EndRead; ++R) {
      const Access &X = S.Reads[R];
      OS << "    read " << X.str(S.Fields[X.Field].Array.Name)
         << ": offset [";
      for (size_t Dm = 0; Dm < ReadOffsets[R].size(); ++Dm)
        OS << (Dm ? ", " : "") << ReadOffsets[R][Dm];
      OS << "], ";
      if (WrittenEarlier[R].empty()) {
        OS << "the previous step's value\n";
        continue;
      }
      OS << "this step's value where statement";
      OS << (WrittenEarlier[R].size() > 1 ? "s" : "");
      for (size_t I = 0; I < WrittenEarlier[R].size(); ++I)
        OS << (I ? ", " : " ") << WrittenEarlier[R][I];
      OS << " wrote it\n";
    }
  }
  for (const std::string &N : BoundsNotes)
    OS << "  bounds: " << N << "\n";
}
