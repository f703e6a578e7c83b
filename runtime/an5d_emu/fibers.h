// an5d_emu/fibers.h - part of an5d_emu.h: the threads of a block as fibers,
// user-space contexts that the launching thread switches between.
//
// A __syncthreads() among OS threads costs a futex sleep and wake-up for
// every thread; a block of 256 threads on two cores spends most of its time
// in the kernel's scheduler. A fiber switch is a few instructions, so the
// emulation runs several times faster. Fibers are the default; builds under
// ThreadSanitizer or AddressSanitizer (which track real threads and stacks)
// and builds with -DAN5D_EMU_OS_THREADS keep one OS thread per CUDA thread
// (an5d_emu/threads.h). The observable semantics are the same: the race
// check and the asynchronous-copy model work per CUDA thread, whatever runs
// it, and blocks run one after another either way.
#pragma once

#if AN5D_EMU_FIBERS

#include <sys/mman.h>

#include <cerrno>
#include <vector>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace an5d_emu {
namespace detail {

#if defined(__x86_64__)
// A saved context is the stack pointer of a stack whose top holds the
// callee-saved registers, the SSE and x87 control words, and the address to
// return to. fiber_switch(from, to) saves the current context in *from and
// resumes `to`.
struct FiberContext {
  void* sp = nullptr;
};

__attribute__((naked, noinline)) inline void fiber_switch_raw(void** /*from*/, void* /*to*/) {
  asm volatile(
      "pushq %rbp\n\t"
      "pushq %rbx\n\t"
      "pushq %r12\n\t"
      "pushq %r13\n\t"
      "pushq %r14\n\t"
      "pushq %r15\n\t"
      "subq $8, %rsp\n\t"
      "stmxcsr (%rsp)\n\t"
      "fnstcw 4(%rsp)\n\t"
      "movq %rsp, (%rdi)\n\t"
      "movq %rsi, %rsp\n\t"
      "ldmxcsr (%rsp)\n\t"
      "fldcw 4(%rsp)\n\t"
      "addq $8, %rsp\n\t"
      "popq %r15\n\t"
      "popq %r14\n\t"
      "popq %r13\n\t"
      "popq %r12\n\t"
      "popq %rbx\n\t"
      "popq %rbp\n\t"
      "ret\n\t");
}

// First code of a new fiber: fiber_start left the entry function in r13 and
// its argument in r12. The entry function never returns.
__attribute__((naked, noinline)) inline void fiber_trampoline() {
  asm volatile(
      "movq %r12, %rdi\n\t"
      "callq *%r13\n\t"
      "ud2\n\t");
}

inline void fiber_switch(FiberContext& from, FiberContext& to) { fiber_switch_raw(&from.sp, to.sp); }

// Prepares `ctx` to run fn(arg) on the stack [stack, stack + bytes) the
// next time it is switched to.
inline void fiber_start(FiberContext& ctx, unsigned char* stack, size_t bytes, void (*fn)(void*),
                        void* arg) {
  uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + bytes) & ~static_cast<uintptr_t>(15);
  // Popped by fiber_switch_raw: control words, r15, r14, r13, r12, rbx, rbp,
  // then `ret` to the trampoline with the stack 16-byte aligned for its call.
  uint64_t* sp = reinterpret_cast<uint64_t*>(top - 64);
  uint32_t mxcsr;
  uint16_t fpucw;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpucw));
  sp[0] = static_cast<uint64_t>(mxcsr) | (static_cast<uint64_t>(fpucw) << 32);
  sp[1] = 0;                                    // r15
  sp[2] = 0;                                    // r14
  sp[3] = reinterpret_cast<uint64_t>(fn);       // r13
  sp[4] = reinterpret_cast<uint64_t>(arg);      // r12
  sp[5] = 0;                                    // rbx
  sp[6] = 0;                                    // rbp
  sp[7] = reinterpret_cast<uint64_t>(&fiber_trampoline);
  ctx.sp = sp;
}
#else
// Elsewhere: the C library's contexts (slower: each switch also saves the
// signal mask, a system call).
struct FiberContext {
  ucontext_t uc;
};

inline void fiber_switch(FiberContext& from, FiberContext& to) { swapcontext(&from.uc, &to.uc); }

inline void fiber_ucontext_entry(unsigned hi, unsigned lo, unsigned fhi, unsigned flo) {
  const uintptr_t arg = (static_cast<uintptr_t>(hi) << 32) | lo;
  const uintptr_t fn = (static_cast<uintptr_t>(fhi) << 32) | flo;
  reinterpret_cast<void (*)(void*)>(fn)(reinterpret_cast<void*>(arg));
}

inline void fiber_start(FiberContext& ctx, unsigned char* stack, size_t bytes, void (*fn)(void*),
                        void* arg) {
  getcontext(&ctx.uc);
  ctx.uc.uc_stack.ss_sp = stack;
  ctx.uc.uc_stack.ss_size = bytes;
  ctx.uc.uc_link = nullptr;
  const uint64_t a = reinterpret_cast<uintptr_t>(arg), f = reinterpret_cast<uintptr_t>(fn);
  makecontext(&ctx.uc, reinterpret_cast<void (*)()>(&fiber_ucontext_entry), 4,
              static_cast<unsigned>(a >> 32), static_cast<unsigned>(a),
              static_cast<unsigned>(f >> 32), static_cast<unsigned>(f));
}
#endif

// Runs the blocks of launches, one after another, on the launching thread;
// CUDA thread t of a block is fiber t. A fiber runs until it reaches
// __syncthreads() or returns; when every fiber still running waits at the
// barrier, it opens. Launches are serialised (launch_mutex), so one runner
// and its stacks serve the whole process.
class FiberRunner {
 public:
  cudaError_t run(const Job& job) {
    if (!grow(job.nthreads)) return cudaErrorLaunchOutOfResources;
    job_ = &job;
    // The launching thread's own view of the built-ins, given back after.
    const uint3 host_tid = threadIdx, host_bid = blockIdx;
    const dim3 host_bdim = blockDim, host_gdim = gridDim;
    tl_in_kernel = true;
    tl_fibers = this;
    tl_dyn_smem = job.dyn_smem;
    blockDim = job.block;
    gridDim = job.grid;
    const unsigned n = job.nthreads, bx = job.block.x, by = job.block.y;
    const uint64_t gx = job.grid.x, gy = job.grid.y;
    for (uint64_t b = 0; b < job.nblocks; ++b) {
      blockIdx = uint3{static_cast<unsigned>(b % gx), static_cast<unsigned>((b / gx) % gy),
                       static_cast<unsigned>(b / (gx * gy))};
      for (unsigned t = 0; t < n; ++t) {
        Fiber& f = fibers_[t];
        f.state = kReady;
        f.idx = uint3{t % bx, (t / bx) % by, t / (bx * by)};
        fiber_start(f.ctx, f.stack, stack_bytes_, &FiberRunner::entry, &f);
      }
      live_ = n;
      for (;;) {
        for (unsigned t = 0; t < n; ++t) {
          if (fibers_[t].state != kReady) continue;
          current_ = t;
          threadIdx = fibers_[t].idx;
          tl_linear_tid = t;
          tl_memory = &job.memory->thread(t);
          fiber_switch(home_, fibers_[t].ctx);
        }
        if (live_ == 0) break;
        // Every fiber still running waits at the barrier: it opens.
        res_count_ = acc_;
        res_n_ = static_cast<int>(arrived_);
        acc_ = 0;
        arrived_ = 0;
        job.memory->end_epoch();
        for (unsigned t = 0; t < n; ++t)
          if (fibers_[t].state == kAtBarrier) fibers_[t].state = kReady;
      }
      job.memory->end_block();
      poison_shared(job.dyn_smem, job.dyn_bytes);
    }
    threadIdx = host_tid;
    blockIdx = host_bid;
    blockDim = host_bdim;
    gridDim = host_gdim;
    tl_in_kernel = false;
    tl_fibers = nullptr;
    tl_dyn_smem = nullptr;
    tl_memory = nullptr;
    tl_linear_tid = 0;
    job_ = nullptr;
    return cudaSuccess;
  }

  // __syncthreads() of the current fiber; see BlockBarrier::sync.
  int sync(int pred, int* participants) {
    acc_ += pred != 0;
    ++arrived_;
    Fiber& f = fibers_[current_];
    f.state = kAtBarrier;
    fiber_switch(f.ctx, home_);
    *participants = res_n_;
    return res_count_;
  }

 private:
  enum State { kReady, kAtBarrier, kDone };
  struct Fiber {
    FiberContext ctx;
    unsigned char* stack = nullptr;
    uint3 idx = {0, 0, 0};
    State state = kDone;
    FiberRunner* runner = nullptr;
  };

  static void entry(void* p) {
    Fiber& f = *static_cast<Fiber*>(p);
    FiberRunner& r = *f.runner;
    r.job_->invoke(r.job_->ctx);
    r.job_->memory->thread_exit(*tl_memory);
    f.state = kDone;
    --r.live_;
    fiber_switch(f.ctx, r.home_);
    fatal("a finished fiber was resumed");
  }

  // Stacks for n fibers: mapped once (untouched pages cost nothing), each
  // with an inaccessible page below it so that an overflow faults.
  bool grow(unsigned n) {
    if (stack_bytes_ == 0) {
      const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
      stack_bytes_ = (kernel_stack_bytes() + page - 1) / page * page;
      guard_bytes_ = page;
    }
    while (fibers_.size() < n) {
      void* p = mmap(nullptr, stack_bytes_ + guard_bytes_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) {
        std::fprintf(stderr, "an5d_emu: cannot map the stack of fiber %zu: %s\n", fibers_.size(),
                     std::strerror(errno));
        return false;
      }
      mprotect(p, guard_bytes_, PROT_NONE);
      fibers_.emplace_back();
      fibers_.back().stack = static_cast<unsigned char*>(p) + guard_bytes_;
      fibers_.back().runner = this;
    }
    return true;
  }

  std::vector<Fiber> fibers_;
  size_t stack_bytes_ = 0, guard_bytes_ = 0;
  FiberContext home_;
  const Job* job_ = nullptr;
  unsigned current_ = 0;
  unsigned live_ = 0;
  unsigned arrived_ = 0;
  int acc_ = 0;
  int res_count_ = 0, res_n_ = 0;
};

inline FiberRunner& runner() {
  static FiberRunner* r = new FiberRunner;  // intentionally leaked, like the pool
  return *r;
}

}  // namespace detail
}  // namespace an5d_emu

#endif  // AN5D_EMU_FIBERS
