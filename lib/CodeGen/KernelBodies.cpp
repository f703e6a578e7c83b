//===- KernelBodies.cpp - Kernel bodies as the emitter builds them --------===//
//
// The Emitter's side of the kernel IR: what W writes between typed
// operations becomes Code operations; endKernel verifies the body,
// prints it and keeps it for --dump=kernel.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include <algorithm>
#include <cassert>

using namespace an5d;
using namespace an5d::codegen;

// --- Kernel bodies -------------------------------------------------------------

void Emitter::beginKernel(const std::string &Name) {
  assert(!Body && "kernel bodies do not nest");
  Body = std::make_unique<KernelBody>();
  Body->Name = Name;
  Body->Elem = Elem;
  Body->Counter = It[0];
  W.beginCapture();
}

bool Emitter::flushCode() {
  assert(Body && "an operation outside a kernel body");
  assert(W.level() == 0 && "code between operations must close its braces");
  std::string Text = W.endCapture();
  W.beginCapture();
  if (Text.empty())
    return false;
  KernelOp Code;
  Code.Src = std::move(Text);
  Body->Ops.push_back(std::move(Code));
  return true;
}

void Emitter::codeReads(std::vector<Operand> Reads) {
  bool Flushed = flushCode();
  (void)Flushed;
  assert(Flushed && "codeReads follows the code that reads");
  Body->Ops.back().Reads = std::move(Reads);
}

KernelOp &Emitter::op(KernelOpKind Kind) {
  flushCode();
  Body->Ops.emplace_back();
  Body->Ops.back().Kind = Kind;
  return Body->Ops.back();
}

void Emitter::codeOp(const std::string &Line, std::vector<Operand> Writes) {
  KernelOp &C = op(KernelOpKind::Code);
  C.Src = Line + "\n";
  C.Writes = std::move(Writes);
}

void Emitter::endKernel() {
  // Flush the last code into the body, then drop the empty capture.
  op(KernelOpKind::Code);
  W.endCapture();
  Body->Ops.pop_back();
  if (Kernels.Drop) {
    for (auto It = Body->Ops.begin(); It != Body->Ops.end(); ++It)
      if (It->Kind == *Kernels.Drop) {
        Body->Ops.erase(It);
        break;
      }
  }
  std::string Error = verifyKernel(*Body);
  if (!Error.empty())
    Kernels.Errors.push_back(Error);
  printKernel(*Body, W);
  Kernels.Bodies.push_back(std::move(*Body));
  Body.reset();
}
