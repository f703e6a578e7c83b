// an5d_emu.h - run CUDA source code on the CPU, a fiber per CUDA thread.
//
// Force-include this header before a .cu file and compile it with a host C++17
// compiler (g++ >= 9 or clang++ >= 10), e.g.
//
//   c++ -x c++ -std=gnu++17 -include an5d_emu.h kernel.cu -o kernel -lpthread -lm
//
// (tools/an5dc-emucc does exactly that). The header defines AN5D_EMULATION and
// never __CUDACC__.
//
// Execution model
// ---------------
// * The CUDA threads of a block run as fibers on the launching thread
//   (an5d_emu/fibers.h): each runs until __syncthreads() or its return. Under
//   ThreadSanitizer or AddressSanitizer, or with -DAN5D_EMU_OS_THREADS,
//   every CUDA thread of a block runs as a real OS thread (pthreads) instead,
//   so data races between the threads of a block really happen and
//   ThreadSanitizer (-fsanitize=thread) can see them. In that mode all
//   synchronisation is done with std::mutex, std::condition_variable and
//   acquire/release atomics (waiters poll a generation counter with acquire
//   loads and sched_yield() a few times before they sleep on a condition
//   variable), all of which ThreadSanitizer models; there is no
//   relaxed-atomic spinning.
// * __syncthreads() is a real barrier among the threads of the current block.
//   A thread that returns from the kernel leaves the barrier: the barriers of
//   the remaining threads then wait only for the threads still running (the
//   sm_70+ behaviour).
// * __shared__ expands to `static`: a __shared__ array declared in a kernel is
//   one object shared by all threads that execute the function. That is only
//   correct because the blocks of a launch run ONE AT A TIME: all threads of
//   block b finish (with a happens-before edge) before any thread of block b+1
//   starts. Blocks run in the order x fastest, then y, then z. Consequence:
//   blocks can never communicate or wait for each other (a kernel that spins
//   on a flag set by another block hangs), and a __shared__ array is one
//   object per function, not one per block.
// * With clang, static __shared__ arrays are placed in the ELF section
//   "an5d_shared" and the whole section is filled with 0xFF bytes (a NaN for
//   float/double) before every block, so reading shared memory that the block
//   did not write shows up as NaN/-1 instead of silently reading zero or the
//   previous block's data. g++ cannot put statics of inline and non-inline
//   functions into one named section, so with g++ static __shared__ arrays are
//   plain zero-initialised statics that keep their contents between blocks.
//   (-DAN5D_EMU_FORCE_SHARED_SECTION uses the section with g++ too; then a
//   __shared__ variable in an inline function is a compile error, "section
//   type conflict", and those in templates are not poisoned.
//   -DAN5D_EMU_NO_SHARED_SECTION turns the section off for clang.)
//   Set AN5D_EMU_POISON=0 in the environment to switch all poisoning off.
// * Dynamic shared memory: `extern __shared__ T name[];` cannot be expressed
//   with a macro. Write AN5D_DYNAMIC_SHARED(T, name) instead (it declares
//   `T* name`), and launch with an5d_emu_launch_smem(kernel, grid, block,
//   bytes, args...). For nvcc define it as
//   `#define AN5D_DYNAMIC_SHARED(T, name) extern __shared__ T name[]`.
// * Kernel launches are synchronous. Launches are serialised (one at a time,
//   process-wide). The fibers' stacks, or the worker threads, come from a
//   persistent pool that grows to the largest block size used and is reused
//   by later launches; each has a small stack (256 KiB; 1 MiB under
//   sanitizers; environment variable AN5D_EMU_STACK_KB overrides).
// * There is no warp: no lock-step execution, no warp-synchronous
//   programming, no __shfl*/__ballot*/__syncwarp (they are deliberately not
//   declared, so code that uses them does not compile). Timing is meaningless.
// * Asynchronous copies (__pipeline_memcpy_async) land only when a
//   __pipeline_wait_prior covers their committed group; until then their
//   destination holds 0xFF bytes (an5d_emu/block_memory.h).
// * With AN5D_EMU_RACE_CHECK (an5dc-emucc's default) a shared byte written by
//   one thread and accessed by another with no barrier between is reported,
//   whatever the interleaving (an5d_emu/race_check.h).
// * Device memory is host memory. cudaMalloc fills new memory with 0xFF bytes
//   (NaN for float/double, -1 for integers) so reads of never-written device
//   memory are visible, and cudaMemcpy/cudaMemset check that the device side
//   lies inside one cudaMalloc allocation.
#ifndef AN5D_EMU_H_INCLUDED
#define AN5D_EMU_H_INCLUDED

#ifndef __cplusplus
#error "an5d_emu.h must be compiled as C++ (use -x c++ -std=gnu++17)"
#endif
#if __cplusplus < 201703L
#error "an5d_emu.h needs C++17 or later (use -std=gnu++17)"
#endif
#ifdef __CUDACC__
#error "an5d_emu.h is for host compilers; do not include it when compiling with nvcc"
#endif

#define AN5D_EMULATION 1

#include "an5d_emu/cuda_types.h"
#include "an5d_emu/shared_memory.h"
#include "an5d_emu/race_check.h"
#include "an5d_emu/block_memory.h"
#include "an5d_emu/threads.h"
#include "an5d_emu/devices.h"
#include "an5d_emu/device.h"
#include "an5d_emu/runtime_api.h"
#include "an5d_emu/streams.h"

#endif  // AN5D_EMU_H_INCLUDED
