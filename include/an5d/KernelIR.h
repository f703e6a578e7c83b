//===- KernelIR.h - A kernel body as a list of typed operations --*- C++ -*-===//
//
// Stage 5's result: each kernel family lowers the plan to a KernelBody, a
// flat list of operations (structure as Loop/If/Else/Scope ... End). The
// verifier checks every body before the one printer spells it in CUDA.
//
// An operation has two halves. Its spelling (Dst, Src, Test, Alt, Args,
// Note) is what the printer writes; its meaning (Reads, Writes: which
// register, asynchronous slot or shared buffer holds which row of which
// level) is what the verifier and --dump=kernel read.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_KERNELIR_H
#define AN5D_KERNELIR_H

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace an5d {

class CodeWriter;

/// What a place holds: level Level (time steps after the launch's input)
/// of the row Row rows after the streaming counter's value when the
/// operation runs. Terms counts the planes a partial sum has taken (0 for
/// a whole value); Boundary marks the value a cell outside the interior
/// keeps (not the level's computed value).
struct RowValue {
  int64_t Level = 0;
  int64_t Row = 0;
  int64_t Terms = 0;
  bool Boundary = false;
};

/// Where a value lives, which decides the rules it is checked by.
enum class Place {
  /// A thread's register: holds what was last written to it.
  Register,
  /// A thread's own shared-memory slot filled by an asynchronous copy:
  /// readable once a wait covers the copy's committed group.
  AsyncSlot,
  /// A shared buffer every thread of the block reads: a barrier must
  /// separate a store from the reads that follow it and a read from the
  /// stores that follow it.
  SharedBuffer,
};

/// One value an operation reads or writes. Part tells the rows of a shared
/// buffer apart (ScalarLayout::SharedRows). With Modulo, the buffer's planes turn
/// with the streaming counter: Part is relative to it, and the plane is
/// (Part + rows advanced) mod Modulo.
struct Operand {
  Place Where = Place::Register;
  std::string Name;
  int64_t Part = 0;
  RowValue Value;
  int64_t Modulo = 0;
  /// A shared buffer's element the thread itself stores (its own column):
  /// its reads need no barrier after its own store, and other threads'
  /// stores do not touch it.
  bool OwnElement = false;
};

enum class KernelOpKind {
  /// Code the verifier does not look into (declarations, geometry): Src
  /// holds its lines, already indented relative to the operation. It may
  /// still write values (Writes), e.g. registers it declares and loads.
  Code,
  /// "// Note".
  Comment,
  /// Start of unrolled phase N of the streaming loop; Note is its comment.
  Phase,
  /// "if (Test) break;": the streaming loop ends here.
  Break,
  /// Structure: Loop (Src: "for (;;)"), If (Test), Else, Scope ("{"); each
  /// closed by End.
  Loop,
  If,
  Else,
  Scope,
  End,
  /// Asynchronous copy of the global cell Src into slot Dst. With Test:
  /// only inside the interior; outside, Alt is stored at once, or with
  /// ZeroFill Alt is the boundary value's address (copied the same way).
  CopyAsync,
  /// Src, a call that copies one row into a shared plane asynchronously
  /// and commits it as one group; with Head, the loop (no braces) that
  /// repeats it, one group per row it Writes.
  CopyRow,
  /// Closes the copies started since the last commit into one group.
  Commit,
  /// Returns once all but the N most recent committed groups have landed
  /// (Src, when given, spells N); Note: which row that makes readable.
  /// Copies into a shared buffer then need a barrier before other threads
  /// read them.
  Wait,
  /// Dst = Src: a register or slot moved into a register.
  Move,
  /// Dst = Src, Src a read of global memory (Test ? Src : Alt with Test).
  Load,
  /// Dst = Test ? Src : Alt: a level's value, or outside the interior the
  /// value the cell keeps (no Test: the interior tiles' kernel).
  Select,
  /// Dst (a shared buffer's element) = Src; with Test, only if Test.
  SharedStore,
  /// __syncthreads().
  Barrier,
  /// [[const Type] Dst =] Src(Args...); [// Note]: the update of a cell,
  /// the associative kernel's accumulation, a vector of updates.
  Compute,
  /// if (Test) Dst = Src: the last level's value into the output plane.
  GlobalStore,
  /// "++Src;" then the lines Args: the streaming counter and what turns
  /// with it (row pointers, plane indices) move one row on.
  Advance,
};

struct KernelOp {
  KernelOpKind Kind = KernelOpKind::Code;
  std::string Dst, Src, Test, Alt, Note, Type, Head;
  std::vector<std::string> Args;
  int64_t N = 0;
  bool ZeroFill = false;
  /// Compute: one argument per line when the call is long (a vector's
  /// lanes, each a call of its own).
  bool Wrap = false;
  std::vector<Operand> Reads, Writes;
};

/// One kernel's body (between its braces).
struct KernelBody {
  std::string Name;
  /// The element type the copies' sizeof names.
  std::string Elem;
  /// The streaming counter's name (rows in the dump are relative to it).
  std::string Counter;
  std::vector<KernelOp> Ops;

  /// The --dump=kernel text form: one operation per line, nested by
  /// structure, with the values each reads and writes.
  void dump(llvm::raw_ostream &OS) const;
};

/// Checks Body's protocol: every asynchronous slot is read after a wait
/// covers its copy; every shared buffer is read after the barrier that
/// follows its store and stored after the barrier that follows its reads;
/// every read finds the level and row it expects (a ring slot overwritten
/// too early is read with another row). The streaming loop is followed for
/// several iterations. Returns "" or the first violation, naming the
/// operation.
std::string verifyKernel(const KernelBody &Body);

/// Writes Body's operations as CUDA at W's indentation.
void printKernel(const KernelBody &Body, CodeWriter &W);

} // namespace an5d

#endif
