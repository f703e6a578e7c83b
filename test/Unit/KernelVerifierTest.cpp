//===- KernelVerifierTest.cpp - The kernel-body verifier's rules ----------===//
//
// Small bodies built by hand: the protocol each rule guards, correct, then
// with one operation missing or moved.
//
//===----------------------------------------------------------------------===//
#include "an5d/KernelIR.h"
#include "an5d/CodeGen.h"

#include <gtest/gtest.h>

using namespace an5d;

namespace {

Operand reg(const std::string &Name, int64_t Level, int64_t Row,
            int64_t Terms = 0) {
  return {Place::Register, Name, 0, {Level, Row, Terms, false}, 0};
}
Operand slot(const std::string &Name, int64_t Row) {
  return {Place::AsyncSlot, Name, 0, {0, Row, 0, false}, 0};
}
Operand buffer(const std::string &Name, int64_t Level, int64_t Row) {
  return {Place::SharedBuffer, Name, 0, {Level, Row, 0, false}, 0};
}

KernelOp make(KernelOpKind K, std::vector<Operand> Reads = {},
              std::vector<Operand> Writes = {}, int64_t N = 0) {
  KernelOp Op;
  Op.Kind = K;
  Op.Reads = std::move(Reads);
  Op.Writes = std::move(Writes);
  Op.N = N;
  Op.Dst = Op.Writes.empty() ? "x" : Op.Writes[0].Name;
  if (K == KernelOpKind::Loop)
    Op.Src = "for (;;)";
  return Op;
}

/// A one-row-ahead stream: copy row x + 1 into the other slot, wait for
/// row x, move it to a register, share it, compute from it.
KernelBody stream(bool Wait = true, bool Barrier = true) {
  KernelBody B;
  B.Name = "k";
  B.Counter = "x";
  B.Ops.push_back(make(KernelOpKind::CopyAsync, {}, {slot("a0", 0)}));
  B.Ops.push_back(make(KernelOpKind::Commit));
  B.Ops.push_back(make(KernelOpKind::Loop));
  for (int Q = 0; Q < 2; ++Q) {
    std::string Mine = Q ? "a1" : "a0", Next = Q ? "a0" : "a1";
    B.Ops.push_back(make(KernelOpKind::CopyAsync, {}, {slot(Next, 1)}));
    B.Ops.push_back(make(KernelOpKind::Commit));
    if (Wait)
      B.Ops.push_back(make(KernelOpKind::Wait, {}, {}, 1));
    B.Ops.push_back(make(KernelOpKind::Move, {slot(Mine, 0)},
                         {reg("r", 0, 0)}));
    B.Ops.push_back(make(KernelOpKind::SharedStore, {reg("r", 0, 0)},
                         {buffer(Q ? "sm1" : "sm0", 0, 0)}));
    if (Barrier)
      B.Ops.push_back(make(KernelOpKind::Barrier));
    B.Ops.push_back(make(KernelOpKind::Compute,
                         {buffer(Q ? "sm1" : "sm0", 0, 0), reg("r", 0, 0)},
                         {reg("v", 1, 0)}));
    B.Ops.push_back(make(KernelOpKind::Advance));
  }
  B.Ops.push_back(make(KernelOpKind::End));
  return B;
}

TEST(KernelVerifier, AcceptsTheProtocol) {
  EXPECT_EQ(verifyKernel(stream()), "");
}

TEST(KernelVerifier, ReadOfACopyNoWaitCovers) {
  std::string E = verifyKernel(stream(/*Wait=*/false));
  EXPECT_NE(E.find("reads a0 before a wait covers its asynchronous copy"),
            std::string::npos)
      << E;
}

TEST(KernelVerifier, WaitThatLeavesTheGroupInFlight) {
  KernelBody B = stream();
  // wait_prior(2) leaves both committed groups in flight.
  for (KernelOp &Op : B.Ops)
    if (Op.Kind == KernelOpKind::Wait)
      Op.N = 2;
  EXPECT_NE(verifyKernel(B).find("before a wait covers"), std::string::npos);
}

TEST(KernelVerifier, SharedReadBeforeTheBarrier) {
  std::string E = verifyKernel(stream(true, /*Barrier=*/false));
  EXPECT_NE(E.find("reads shared buffer sm0 before the barrier that follows "
                   "its store"),
            std::string::npos)
      << E;
}

TEST(KernelVerifier, SharedStoreWhileOthersRead) {
  // One buffer for both phases: the store of phase 1 follows phase 0's
  // reads with no barrier between.
  KernelBody B = stream();
  for (KernelOp &Op : B.Ops)
    for (Operand &O : Op.Writes)
      if (O.Name == "sm1")
        O.Name = "sm0";
  for (KernelOp &Op : B.Ops)
    for (Operand &O : Op.Reads)
      if (O.Name == "sm1")
        O.Name = "sm0";
  std::string E = verifyKernel(B);
  EXPECT_NE(E.find("stores into shared buffer sm0 while other threads may "
                   "still read it"),
            std::string::npos)
      << E;
}

TEST(KernelVerifier, RingSlotOverwrittenBeforeItsLastRead) {
  // A two-slot ring: row x goes to slot x % 2; the update reads rows x - 2
  // and x. With two slots row x - 2's slot already holds row x.
  KernelBody B;
  B.Name = "ring";
  B.Counter = "x";
  B.Ops.push_back(make(KernelOpKind::Loop));
  for (int Q = 0; Q < 2; ++Q) {
    std::string Slot = "r" + std::to_string(Q);
    B.Ops.push_back(make(KernelOpKind::Load, {}, {reg(Slot, 0, 0)}));
    B.Ops.push_back(make(KernelOpKind::Compute,
                         {reg(Slot, 0, -2), reg(Slot, 0, 0)},
                         {reg("v", 1, -1)}));
    B.Ops.push_back(make(KernelOpKind::Advance));
  }
  B.Ops.push_back(make(KernelOpKind::End));
  std::string E = verifyKernel(B);
  EXPECT_NE(E.find("reads r0 expecting level 0 row x - 2, but it holds level "
                   "0 row x"),
            std::string::npos)
      << E;
}

TEST(KernelVerifier, PartialSumFinishedFromTheWrongSlot) {
  // The associative kernel's one-sided bug (rows above only): the sum of
  // row x - 1 took its term when row x - 2 arrived... here one plane, the
  // finish reads the slot of the sum started now instead of the row's.
  KernelBody B;
  B.Name = "assoc";
  B.Counter = "x";
  B.Ops.push_back(make(KernelOpKind::Loop));
  for (int Q = 0; Q < 2; ++Q) {
    std::string Now = "acc" + std::to_string(Q),
                Done = "acc" + std::to_string(1 - Q);
    // Row x arrives: it is the only term of row x + 1's sum (plane -1).
    B.Ops.push_back(make(KernelOpKind::Compute, {reg("in", 0, 0)},
                         {reg(Now, 1, 1, 1)}));
    // Row x completes: its sum is the one started one row ago.
    B.Ops.push_back(
        make(KernelOpKind::Compute, {reg(Done, 1, 0, 1)}, {reg("v", 1, 0)}));
    B.Ops.push_back(make(KernelOpKind::Load, {}, {reg("in", 0, 1)}));
    B.Ops.push_back(make(KernelOpKind::Advance));
  }
  B.Ops.push_back(make(KernelOpKind::End));
  EXPECT_EQ(verifyKernel(B), "");
  // The bug: finishing from the slot just started.
  for (KernelOp &Op : B.Ops)
    if (Op.Kind == KernelOpKind::Compute && Op.Writes[0].Name == "v")
      Op.Reads[0].Name = Op.Reads[0].Name == "acc0" ? "acc1" : "acc0";
  std::string E = verifyKernel(B);
  EXPECT_NE(E.find("expecting level 1 row x after 1 plane(s), but it holds "
                   "level 1 row x + 1"),
            std::string::npos)
      << E;
}

TEST(KernelVerifier, CopyRowNeedsWaitAndBarrier) {
  // A row copied by all threads into a turning shared plane.
  auto body = [](bool Barrier) {
    KernelBody B;
    B.Name = "rows";
    B.Counter = "x";
    Operand Plane = buffer("smem", 0, 0);
    Plane.Modulo = 2;
    Operand Ahead = Plane;
    Ahead.Part = 1;
    Ahead.Value.Row = 1;
    KernelOp First = make(KernelOpKind::CopyRow, {}, {Plane});
    B.Ops.push_back(First);
    B.Ops.push_back(make(KernelOpKind::Loop));
    B.Ops.push_back(make(KernelOpKind::CopyRow, {}, {Ahead}));
    B.Ops.push_back(make(KernelOpKind::Wait, {}, {}, 1));
    if (Barrier)
      B.Ops.push_back(make(KernelOpKind::Barrier));
    B.Ops.push_back(make(KernelOpKind::Move, {Plane}, {reg("r", 0, 0)}));
    B.Ops.push_back(make(KernelOpKind::Barrier));
    B.Ops.push_back(make(KernelOpKind::Advance));
    B.Ops.push_back(make(KernelOpKind::End));
    return B;
  };
  EXPECT_EQ(verifyKernel(body(true)), "");
  EXPECT_NE(verifyKernel(body(false)).find("before the barrier"),
            std::string::npos);
}

TEST(KernelVerifier, PrintsTheOperations) {
  KernelBody B = stream();
  B.Elem = "float";
  for (KernelOp &Op : B.Ops)
    if (Op.Kind == KernelOpKind::CopyAsync)
      Op.Src = "in_next";
  CodeWriter W;
  printKernel(B, W);
  EXPECT_NE(W.str().find("__pipeline_memcpy_async(&a0, in_next, "
                         "sizeof(float));\n__pipeline_commit();\nfor (;;) {"),
            std::string::npos)
      << W.str();
  EXPECT_NE(W.str().find("__pipeline_wait_prior(1);"), std::string::npos);
  EXPECT_NE(W.str().find("__syncthreads();"), std::string::npos);
}

} // namespace
