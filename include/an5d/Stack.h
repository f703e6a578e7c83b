//===- an5d/Stack.h - Running the pipeline on a large stack ---------------===//
//
// Clang's parser and every stage recurse once per level of the update
// expression; the frontend rejects nesting deeper than MaxExprDepth
// (Frontend.h), and the pipeline runs on a stack that holds that depth.
//
//===----------------------------------------------------------------------===//
#ifndef AN5D_STACK_H
#define AN5D_STACK_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace an5d {

/// The stack the pipeline asks for: address space, touched only as deep as
/// used. At MaxExprDepth the stages use about 32 MiB; clang's parser needs
/// about 10 KiB per nested cast and 5 KiB per nested sign, so the frontend
/// sees (and rejects) chains several times deeper than it accepts.
constexpr size_t PipelineStackBytes = size_t(1) << 30;

/// Runs Fn on a thread with PipelineStackBytes of stack and returns its
/// result. Where the system refuses that much (ulimit -v), it asks for
/// less, down to 64 MiB, then runs Fn on the calling thread.
int runOnLargeStack(llvm::function_ref<int()> Fn);

} // namespace an5d

#endif
