// an5d_emu/threads.h - part of an5d_emu.h: the block barrier, the worker pool,
// kernel launches and __syncthreads().
#pragma once

namespace an5d_emu {
namespace detail {


#ifndef AN5D_EMU_SPIN_YIELDS
#define AN5D_EMU_SPIN_YIELDS 64
#endif

// Barrier for the threads of one block. One mutex guards the counters; the
// waiting threads are spread over groups of 32 (each with its own mutex and
// condition variable) so that a release does not make all threads of a large
// block fight for one mutex.
class BlockBarrier {
 public:
  static constexpr unsigned kGroup = 32;
  static constexpr int kSpinYields = AN5D_EMU_SPIN_YIELDS;

  BlockBarrier(unsigned nthreads, unsigned char* dyn, size_t dyn_bytes, BlockMemory* memory)
      : n_(nthreads),
        live_(nthreads),
        ngroups_((nthreads + kGroup - 1) / kGroup),
        groups_(new Group[(nthreads + kGroup - 1) / kGroup]),
        dyn_(dyn),
        dyn_bytes_(dyn_bytes),
        memory_(memory) {}
  BlockBarrier(const BlockBarrier&) = delete;
  BlockBarrier& operator=(const BlockBarrier&) = delete;

  // __syncthreads(); returns how many of the participating threads passed a
  // non-zero predicate, and through *participants how many took part.
  int sync(unsigned tid, int pred, int* participants) {
    Group& g = groups_[tid / kGroup];
    uint64_t target;
    {
      std::lock_guard<std::mutex> lk(m_);
      acc_ += pred != 0;
      ++arrived_;
      target = sync_gen_.load(std::memory_order_relaxed) + 1;
      if (arrived_ == live_) {
        release_sync_locked();
        *participants = res_n_;
        return res_count_;
      }
    }
    wait(g, sync_gen_, &Group::sync_gen, target);
    // res_* cannot change before this thread arrives at the next barrier.
    *participants = res_n_;
    return res_count_;
  }

  // Called by every thread after it returned from the kernel for the current
  // block: it leaves the block's barrier, then waits until all threads of the
  // block have returned. The last one prepares the next block.
  void finish(unsigned tid) {
    Group& g = groups_[tid / kGroup];
    uint64_t target;
    {
      std::lock_guard<std::mutex> lk(m_);
      --live_;
      if (arrived_ > 0 && arrived_ == live_) release_sync_locked();
      ++done_;
      target = block_gen_.load(std::memory_order_relaxed) + 1;
      if (done_ == n_) {
        done_ = 0;
        live_ = n_;
        memory_->end_block();
        poison_shared(dyn_, dyn_bytes_);
        publish(block_gen_, &Group::block_gen);
        return;
      }
    }
    wait(g, block_gen_, &Group::block_gen, target);
  }

 private:
  struct alignas(64) Group {
    std::mutex m;
    std::condition_variable cv;
    uint64_t sync_gen = 0;   // copies of the generations, guarded by m
    uint64_t block_gen = 0;
    unsigned sleepers = 0;   // threads blocked on cv
  };

  // Make generation value `gen` (already incremented under m_) visible to
  // the waiters: first through the atomic that spinning waiters poll (a
  // release store; their acquire load makes it a happens-before edge), then
  // through each group's mutex-guarded copy for the threads blocked on its
  // condition variable.
  void publish(std::atomic<uint64_t>& gen, uint64_t Group::*copy) {
    const uint64_t v = gen.load(std::memory_order_relaxed) + 1;
    gen.store(v, std::memory_order_release);
    for (unsigned i = 0; i < ngroups_; ++i) {
      Group& g = groups_[i];
      bool wake;
      {
        std::lock_guard<std::mutex> gl(g.m);
        g.*copy = v;
        wake = g.sleepers != 0;
      }
      if (wake) g.cv.notify_all();
    }
  }

  // Wait until generation `gen` reaches `target`. With many more threads
  // than cores, yielding the CPU a few times is much cheaper than sleeping
  // on a condition variable (each sleep/wake-up is a futex round trip), so
  // poll first (acquire loads: ThreadSanitizer sees the synchronisation),
  // then block.
  static void wait(Group& g, const std::atomic<uint64_t>& gen, uint64_t Group::*copy,
                   uint64_t target) {
    for (int i = 0; i < kSpinYields; ++i) {
      if (gen.load(std::memory_order_acquire) >= target) return;
      std::this_thread::yield();
    }
    std::unique_lock<std::mutex> gl(g.m);
    ++g.sleepers;
    g.cv.wait(gl, [&] { return g.*copy >= target; });
    --g.sleepers;
  }

  void release_sync_locked() {
    res_count_ = acc_;
    res_n_ = static_cast<int>(arrived_);
    acc_ = 0;
    arrived_ = 0;
    memory_->end_epoch();
    publish(sync_gen_, &Group::sync_gen);
  }

  std::mutex m_;
  const unsigned n_;
  unsigned live_;          // threads of the current block still in the kernel
  unsigned arrived_ = 0;   // threads waiting in the current __syncthreads
  unsigned done_ = 0;      // threads that returned from the current block
  int acc_ = 0;            // predicate count of the current __syncthreads
  int res_count_ = 0;      // results of the last released __syncthreads
  int res_n_ = 0;
  std::atomic<uint64_t> sync_gen_{0};   // written under m_ only
  std::atomic<uint64_t> block_gen_{0};
  const unsigned ngroups_;
  std::unique_ptr<Group[]> groups_;
  unsigned char* const dyn_;
  const size_t dyn_bytes_;
  BlockMemory* const memory_;
};

struct Job {
  dim3 grid, block;
  unsigned nthreads;
  uint64_t nblocks;
  void (*invoke)(const void*);
  const void* ctx;
  BlockBarrier* barrier;  // OS threads only
  unsigned char* dyn_smem;
  size_t dyn_bytes;
  BlockMemory* memory;
};

// The stack of one CUDA thread: 256 KiB, 1 MiB under the sanitizers; the
// environment variable AN5D_EMU_STACK_KB sets another size.
inline size_t kernel_stack_bytes() {
#if defined(AN5D_EMU_UNDER_TSAN) || defined(AN5D_EMU_UNDER_ASAN)
  const long dflt_kb = 1024;
#else
  const long dflt_kb = 256;
#endif
  long kb = env_long("AN5D_EMU_STACK_KB", dflt_kb);
  size_t bytes = static_cast<size_t>(kb > 0 ? kb : dflt_kb) * 1024;
  const long pmin = sysconf(_SC_THREAD_STACK_MIN);
  if (pmin > 0 && bytes < static_cast<size_t>(pmin)) bytes = static_cast<size_t>(pmin);
  return bytes;
}

inline void run_thread(const Job& job, unsigned tid) {
  tl_in_kernel = true;
  tl_barrier = job.barrier;
  tl_linear_tid = tid;
  tl_dyn_smem = job.dyn_smem;
  tl_memory = &job.memory->thread(tid);
  const unsigned bx = job.block.x, by = job.block.y;
  threadIdx = uint3{tid % bx, (tid / bx) % by, tid / (bx * by)};
  blockDim = job.block;
  gridDim = job.grid;
  const uint64_t gx = job.grid.x, gy = job.grid.y;
  for (uint64_t b = 0; b < job.nblocks; ++b) {
    blockIdx = uint3{static_cast<unsigned>(b % gx), static_cast<unsigned>((b / gx) % gy),
                     static_cast<unsigned>(b / (gx * gy))};
    job.invoke(job.ctx);
    job.memory->thread_exit(*tl_memory);
    job.barrier->finish(tid);
  }
  tl_in_kernel = false;
  tl_barrier = nullptr;
  tl_dyn_smem = nullptr;
  tl_memory = nullptr;
}

// Persistent pool of worker threads; worker i runs CUDA thread i (linear
// index) of every block of every launch. It only grows. It is never
// destroyed: idle workers sleep on a condition variable until the process
// exits. Workers are woken through per-group slots (mutex + condition
// variable for 32 workers each) so that a launch does not make all workers
// queue on one mutex.
class Pool {
 public:
  cudaError_t run(const Job& job) {
    std::unique_lock<std::mutex> lk(m_);
    while (nworkers_ < job.nthreads) {
      if (!spawn_locked()) return cudaErrorLaunchOutOfResources;
    }
    ++job_gen_;
    finished_ = false;
    done_.store(0, std::memory_order_relaxed);
    const unsigned ng = (job.nthreads + kGroup - 1) / kGroup;
    for (unsigned i = 0; i < ng; ++i) {
      {
        std::lock_guard<std::mutex> sl(slots_[i].m);
        slots_[i].job = &job;
        slots_[i].gen = job_gen_;
      }
      slots_[i].cv.notify_all();
    }
    done_cv_.wait(lk, [&] { return finished_; });
    for (unsigned i = 0; i < ng; ++i) {
      std::lock_guard<std::mutex> sl(slots_[i].m);
      slots_[i].job = nullptr;
    }
    return cudaSuccess;
  }

 private:
  static constexpr unsigned kGroup = 32;
  static constexpr unsigned kMaxWorkers = 1024;

  struct alignas(64) Slot {
    std::mutex m;
    std::condition_variable cv;
    uint64_t gen = 0;          // generation of the last job posted here
    const Job* job = nullptr;  // that job while it runs, else null
  };

  struct Start {
    Pool* pool;
    unsigned idx;
    uint64_t seen;
  };

  bool spawn_locked() {
    if (nworkers_ >= kMaxWorkers) return false;
    static const size_t stack = kernel_stack_bytes();
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, stack);
    Start* s = new Start{this, nworkers_, job_gen_};
    pthread_t th;
    int rc = pthread_create(&th, &attr, &Pool::entry, s);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      delete s;
      std::fprintf(stderr, "an5d_emu: cannot create worker thread %u: %s\n", nworkers_,
                   std::strerror(rc));
      return false;
    }
    ++nworkers_;
    return true;
  }

  static void* entry(void* p) {
    Start s = *static_cast<Start*>(p);
    delete static_cast<Start*>(p);
    s.pool->loop(s.idx, s.seen);
    return nullptr;
  }

  void loop(unsigned idx, uint64_t seen) {
    Slot& slot = slots_[idx / kGroup];
    for (;;) {
      const Job* job;
      {
        std::unique_lock<std::mutex> sl(slot.m);
        slot.cv.wait(sl, [&] { return slot.gen != seen && slot.job && idx < slot.job->nthreads; });
        seen = slot.gen;
        job = slot.job;
      }
      const unsigned n = job->nthreads;
      run_thread(*job, idx);
      // acq_rel: the last worker to arrive has seen everything the others
      // did, and hands it to the host through m_. Nobody touches *job after
      // counting itself.
      if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == n) {
        {
          std::lock_guard<std::mutex> lk(m_);
          finished_ = true;
        }
        done_cv_.notify_one();
      }
    }
  }

  std::mutex m_;  // guards nworkers_, job_gen_, finished_
  std::condition_variable done_cv_;
  unsigned nworkers_ = 0;
  uint64_t job_gen_ = 0;
  bool finished_ = false;
  std::atomic<unsigned> done_{0};
  Slot slots_[kMaxWorkers / kGroup];
};

inline Pool& pool() {
  static Pool* p = new Pool;  // intentionally leaked, see Pool
  return *p;
}

}  // namespace detail
}  // namespace an5d_emu

#include "fibers.h"

namespace an5d_emu {
namespace detail {

inline std::mutex& launch_mutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}

// The most blocks along a launch's y and z. -DAN5D_MAX_GRID_YZ=<n> makes the
// emulated device a smaller one, so that tests of code that splits large
// grids over several launches need only small grids (an5dc's generated code
// reads the same macro).
#ifdef AN5D_MAX_GRID_YZ
constexpr unsigned kMaxGridYZ = AN5D_MAX_GRID_YZ;
#else
constexpr unsigned kMaxGridYZ = 65535;
#endif

inline cudaError_t check_config(dim3 grid, dim3 block, size_t smem) {
  if (block.x == 0 || block.y == 0 || block.z == 0 || block.x > 1024 || block.y > 1024 ||
      block.z > 64)
    return cudaErrorInvalidConfiguration;
  if (static_cast<uint64_t>(block.x) * block.y * block.z > 1024)
    return cudaErrorInvalidConfiguration;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 2147483647u ||
      grid.y > kMaxGridYZ || grid.z > kMaxGridYZ)
    return cudaErrorInvalidConfiguration;
  if (smem > 227 * 1024) return cudaErrorInvalidValue;
  return cudaSuccess;
}

// an5d_emu/streams.h: queued work of the created streams.
inline void drain_all();
inline void drain_device(int device);
// an5d_emu/runtime_api.h: a pointer argument into another device's memory.
inline void check_kernel_pointer(const char* kernel, const void* p);
template <class T>
inline void check_kernel_argument(const char* kernel, const T& v) {
  if constexpr (std::is_pointer<T>::value) check_kernel_pointer(kernel, static_cast<const void*>(v));
}
inline void before_default_stream_work();

// Runs the kernel now (see streams.h: as default-stream work, whatever the
// stream it was launched on).
inline void launch_impl(const char* name, dim3 grid, dim3 block, size_t smem,
                        void (*invoke)(const void*),
                        const void* ctx) {
  if (tl_in_kernel) fatal("kernel launch from device code is not supported");
  before_default_stream_work();
  cudaError_t err = check_config(grid, block, smem);
  if (err != cudaSuccess) {
    record(err);
    return;
  }
  std::lock_guard<std::mutex> serial(launch_mutex());
  const unsigned nthreads = block.x * block.y * block.z;
  unsigned char* dyn = nullptr;
  if (smem > 0) {
    dyn = static_cast<unsigned char*>(std::aligned_alloc(64, (smem + 63) / 64 * 64));
    if (!dyn) {
      record(cudaErrorLaunchOutOfResources);
      return;
    }
  }
  poison_shared(dyn, smem);
  SharedSpace space;
  space.dyn = dyn;
  space.dyn_bytes = smem;
#ifdef AN5D_EMU_SHARED_SECTION
  if (__start_an5d_shared && __stop_an5d_shared > __start_an5d_shared) {
    space.sec = reinterpret_cast<unsigned char*>(__start_an5d_shared);
    space.sec_bytes = static_cast<size_t>(__stop_an5d_shared - __start_an5d_shared);
  }
#endif
  BlockMemory memory(LaunchInfo{name ? name : "(unnamed)", block, space});
#if !AN5D_EMU_FIBERS
  BlockBarrier barrier(nthreads, dyn, smem, &memory);
#endif
  Job job{grid,   block, nthreads, static_cast<uint64_t>(grid.x) * grid.y * grid.z,
          invoke, ctx,
#if AN5D_EMU_FIBERS
          nullptr,
#else
          &barrier,
#endif
          dyn,    smem,  &memory};
#ifdef AN5D_EMU_RACE_CHECK
  g_space = space;
  g_race_check = &memory.check();
#endif
#if AN5D_EMU_FIBERS
  record(runner().run(job));
#else
  record(pool().run(job));
#endif
#ifdef AN5D_EMU_RACE_CHECK
  g_race_check = nullptr;
  g_space = SharedSpace();
#endif
  std::free(dyn);
}

template <class Tuple, class Kernel>
struct Closure {
  Kernel kernel;
  Tuple params;
  template <size_t... I>
  void call(std::index_sequence<I...>) const {
    kernel(std::get<I>(params)...);
  }
  static void invoke(const void* self) {
    // Each thread gets its own copy of every parameter, as in CUDA.
    static_cast<const Closure*>(self)->call(std::make_index_sequence<std::tuple_size<Tuple>::value>());
  }
};

}  // namespace detail
}  // namespace an5d_emu

// --- Kernel launch ----------------------------------------------------------
namespace an5d_emu {
namespace detail {
// Runs the whole grid synchronously. Invalid configurations are recorded for
// cudaGetLastError() (cudaErrorInvalidConfiguration) and nothing runs. `name`
// (may be null) names the kernel in error messages.
template <class... P, class... A>
void launch(const char* name, void (*kernel)(P...), dim3 grid, dim3 block, size_t smem_bytes,
            A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel launched with a wrong number of arguments");
  using Tuple = std::tuple<std::decay_t<P>...>;
  using C = Closure<Tuple, void (*)(P...)>;
  C closure{kernel, Tuple(std::forward<A>(args)...)};
  std::apply([name](const auto&... a) { (check_kernel_argument(name, a), ...); }, closure.params);
  launch_impl(name, grid, block, smem_bytes, &C::invoke, &closure);
}
}  // namespace detail
}  // namespace an5d_emu

template <class... P, class... A>
void an5d_emu_launch_smem(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem_bytes,
                          A&&... args) {
  an5d_emu::detail::launch(nullptr, kernel, grid, block, smem_bytes, std::forward<A>(args)...);
}

// Launches like an5d_emu_launch_smem, and names the kernel in error messages;
// with AN5D_EMU_TRACE=1 in the environment it first prints the kernel's name
// and launch shape to stderr, so that tests can see which kernel a launch gave
// which blocks.
template <class... P, class... A>
void an5d_emu_launch_named(const char* name, void (*kernel)(P...), dim3 grid, dim3 block,
                           size_t smem_bytes, A&&... args) {
  if (an5d_emu::detail::env_long("AN5D_EMU_TRACE", 0) != 0)
    std::fprintf(stderr, "an5d_emu: launch %s grid %u,%u,%u block %u,%u,%u\n", name, grid.x,
                 grid.y, grid.z, block.x, block.y, block.z);
  an5d_emu::detail::launch(name, kernel, grid, block, smem_bytes, std::forward<A>(args)...);
}

template <class... P, class... A>
void an5d_emu_launch(void (*kernel)(P...), dim3 grid, dim3 block, A&&... args) {
  an5d_emu_launch_smem(kernel, grid, block, 0, std::forward<A>(args)...);
}

// --- Synchronisation and device built-ins -----------------------------------
namespace an5d_emu {
namespace detail {
inline int sync_block(int pred, int* participants) {
#if AN5D_EMU_FIBERS
  if (!tl_fibers) fatal("__syncthreads() called outside a kernel");
  return tl_fibers->sync(pred, participants);
#else
  if (!tl_barrier) fatal("__syncthreads() called outside a kernel");
  return tl_barrier->sync(tl_linear_tid, pred, participants);
#endif
}
}  // namespace detail
}  // namespace an5d_emu

inline void __syncthreads() {
  int n;
  an5d_emu::detail::sync_block(0, &n);
}
inline int __syncthreads_count(int pred) {
  int n;
  return an5d_emu::detail::sync_block(pred, &n);
}
inline int __syncthreads_and(int pred) {
  int n;
  return an5d_emu::detail::sync_block(pred, &n) == n;
}
inline int __syncthreads_or(int pred) {
  int n;
  return an5d_emu::detail::sync_block(pred, &n) != 0;
}
