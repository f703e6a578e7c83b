//===- KernelVerifier.cpp - The protocol checks of a kernel body ---------===//
//
// Follows a KernelBody as one thread would, with rows made absolute (the
// Advance operations counted), and tracks what each place holds, which
// asynchronous copies are in flight and which shared buffers a barrier
// has closed.
//
//===----------------------------------------------------------------------===//
#include "an5d/KernelIR.h"

#include <map>
#include <set>

using namespace an5d;

namespace {

/// How often the verifier follows a streaming loop's body: the first pass
/// meets the set-up's values, the later ones the loop's own (the ring's
/// slots come round once per body, which unrolls a whole period).
constexpr int LoopPasses = 3;

struct Held {
  RowValue Value;       // Row absolute
  size_t Writer = 0;    // index of the operation that wrote it
};

struct State {
  std::map<std::string, Held> Values;
  /// Asynchronous slots whose copy has not landed: the group it belongs
  /// to (-1: not committed yet).
  std::map<std::string, int64_t> InFlight;
  int64_t Committed = 0;
  /// Per shared buffer: stored or read since the last barrier.
  std::set<std::string> Stored, Read;
  int64_t Shift = 0; // Advance operations so far
};

class Verifier {
public:
  explicit Verifier(const KernelBody &B) : B(B) {}

  std::string run() {
    State S;
    size_t End = walk(0, S, /*Passes=*/1);
    (void)End;
    return Error;
  }

private:
  const KernelBody &B;
  std::string Error;
  /// Places of shared buffers that asynchronous copies fill.
  std::set<std::string> Shared;

  static std::string key(const Operand &O, const State &S) {
    int64_t Part = O.Part;
    if (O.Modulo)
      Part = ((Part + S.Shift) % O.Modulo + O.Modulo) % O.Modulo;
    return O.Name + "#" + std::to_string(Part);
  }

  std::string where(size_t I) const {
    return "kernel " + B.Name + ", operation " + std::to_string(I) + " (" +
           describe(I) + ")";
  }

  std::string describe(size_t I) const {
    const KernelOp &Op = B.Ops[I];
    std::string D = Op.Dst.empty() ? Op.Src : Op.Dst;
    // A code operation's first line names it; the message stays one line.
    if (D.find('\n') != std::string::npos && D.find('\n') + 1 < D.size())
      D = D.substr(0, D.find('\n')) + " ...";
    else if (!D.empty() && D.back() == '\n')
      D.pop_back();
    return D.size() > 60 ? D.substr(0, 60) + "..." : D;
  }

  std::string valueText(const RowValue &V) const {
    std::string R = (V.Boundary ? "boundary of level " : "level ") +
                    std::to_string(V.Level) + " row " + B.Counter;
    if (V.Row)
      R += (V.Row > 0 ? " + " : " - ") +
           std::to_string(V.Row > 0 ? V.Row : -V.Row);
    if (V.Terms)
      R += " after " + std::to_string(V.Terms) + " plane(s)";
    return R;
  }

  void fail(const std::string &Msg) {
    if (Error.empty())
      Error = Msg;
  }

  void read(size_t I, const Operand &O, State &S) {
    std::string K = key(O, S);
    RowValue Want = O.Value;
    Want.Row += S.Shift;
    if (S.InFlight.count(K))
      fail(where(I) + " reads " + O.Name + " before a wait covers its "
           "asynchronous copy");
    // A thread's own element is its own store: no other thread's.
    if (O.Where == Place::SharedBuffer && !O.OwnElement) {
      if (S.Stored.count(K))
        fail(where(I) + " reads shared buffer " + O.Name +
             " before the barrier that follows its store");
      S.Read.insert(K);
    }
    auto It = S.Values.find(K);
    if (It == S.Values.end()) {
      // Before the stream's first row (row 0 at the kernel's start) a level
      // reads rows no one loads or computes: a register's declared zero or
      // shared memory's garbage, whose results are never stored. Level 0
      // is copied every row from row 0 on; a register's higher levels start
      // later, so registers are not checked here.
      bool BeforeStream = O.Where == Place::Register || Want.Row < 0;
      if (!BeforeStream)
        fail(where(I) + " reads " + O.Name + " before anything is stored "
             "there");
      return;
    }
    const RowValue &Got = It->second.Value;
    if (Got.Level != Want.Level || Got.Row != Want.Row ||
        Got.Terms != Want.Terms || Got.Boundary != Want.Boundary) {
      RowValue Rel = Got;
      Rel.Row -= S.Shift;
      RowValue WantRel = O.Value;
      fail(where(I) + " reads " + O.Name + " expecting " +
           valueText(WantRel) + ", but it holds " + valueText(Rel) +
           " (written by operation " + std::to_string(It->second.Writer) +
           ")");
    }
  }

  void write(size_t I, const Operand &O, State &S, bool Async) {
    std::string K = key(O, S);
    if (O.Where == Place::SharedBuffer) {
      if (S.Read.count(K))
        fail(where(I) + " stores into shared buffer " + O.Name +
             " while other threads may still read it (no barrier since the "
             "last read)");
      // A copy's other threads' parts are stored when the wait covers it.
      if (!Async)
        S.Stored.insert(K);
    }
    if (Async && S.InFlight.count(K))
      fail(where(I) + " writes " + O.Name +
           " while an earlier asynchronous copy into it is in flight");
    if (Async) {
      S.InFlight[K] = -1;
      if (O.Where == Place::SharedBuffer)
        Shared.insert(K);
    }
    RowValue V = O.Value;
    V.Row += S.Shift;
    S.Values[K] = {V, I};
  }

  static void commit(State &S) {
    for (auto &F : S.InFlight)
      if (F.second < 0)
        F.second = S.Committed;
    ++S.Committed;
  }

  /// Index of the End that closes the structure opened at Open.
  size_t closing(size_t Open) {
    int Depth = 0;
    for (size_t I = Open; I < B.Ops.size(); ++I) {
      KernelOpKind K = B.Ops[I].Kind;
      if (K == KernelOpKind::Loop || K == KernelOpKind::If ||
          K == KernelOpKind::Else || K == KernelOpKind::Scope)
        ++Depth;
      else if (K == KernelOpKind::End && --Depth == 0)
        return I;
    }
    fail("kernel " + B.Name + ": operation " + std::to_string(Open) +
         " is never closed");
    return B.Ops.size();
  }

  /// Follows the operations from Begin up to the End at this depth (or
  /// the body's end); returns the index after that End.
  size_t walk(size_t Begin, State &S, int) {
    size_t I = Begin;
    while (I < B.Ops.size() && Error.empty()) {
      const KernelOp &Op = B.Ops[I];
      switch (Op.Kind) {
      case KernelOpKind::End:
        return I + 1;
      case KernelOpKind::Loop: {
        size_t Close = closing(I);
        for (int Pass = 0; Pass < LoopPasses && Error.empty(); ++Pass)
          walk(I + 1, S, 0);
        I = Close + 1;
        continue;
      }
      case KernelOpKind::If: {
        // The branch is followed as taken; an Else right after it starts
        // again from the state before the If.
        size_t Close = closing(I);
        State Before = S;
        walk(I + 1, S, 0);
        I = Close + 1;
        if (I < B.Ops.size() && B.Ops[I].Kind == KernelOpKind::Else) {
          size_t ElseClose = closing(I);
          walk(I + 1, Before, 0);
          I = ElseClose + 1;
        }
        continue;
      }
      case KernelOpKind::Else:
        fail(where(I) + ": else without if");
        return B.Ops.size();
      case KernelOpKind::Scope:
        I = walk(I + 1, S, 0);
        continue;
      default:
        break;
      }
      for (const Operand &O : Op.Reads)
        read(I, O, S);
      bool Async = Op.Kind == KernelOpKind::CopyAsync ||
                   Op.Kind == KernelOpKind::CopyRow;
      for (const Operand &O : Op.Writes) {
        write(I, O, S, Async);
        if (Op.Kind == KernelOpKind::CopyRow)
          commit(S);
      }
      switch (Op.Kind) {
      case KernelOpKind::Commit:
        commit(S);
        break;
      case KernelOpKind::Wait:
        for (auto F = S.InFlight.begin(); F != S.InFlight.end();)
          if (F->second >= 0 && F->second < S.Committed - Op.N) {
            if (Shared.count(F->first))
              S.Stored.insert(F->first);
            F = S.InFlight.erase(F);
          } else {
            ++F;
          }
        break;
      case KernelOpKind::Barrier:
        S.Stored.clear();
        S.Read.clear();
        break;
      case KernelOpKind::Advance:
        ++S.Shift;
        break;
      default:
        break;
      }
      ++I;
    }
    return I;
  }
};

} // namespace

std::string an5d::verifyKernel(const KernelBody &Body) {
  return Verifier(Body).run();
}
