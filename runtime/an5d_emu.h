// an5d_emu.h - run CUDA source code on the CPU, one OS thread per CUDA thread.
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
// * Every CUDA thread of a block runs as a real OS thread (pthreads), so data
//   races between the threads of a block really happen and ThreadSanitizer
//   (-fsanitize=thread) can see them. All synchronisation is done with
//   std::mutex, std::condition_variable and acquire/release atomics (waiters
//   poll a generation counter with acquire loads and sched_yield() a few
//   times before they sleep on a condition variable), all of which
//   ThreadSanitizer models; there is no relaxed-atomic spinning.
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
//   process-wide). The worker threads come from a persistent pool that grows
//   to the largest block size used and is reused by later launches; each
//   worker has a small stack (256 KiB; 1 MiB under sanitizers; environment
//   variable AN5D_EMU_STACK_KB overrides).
// * There is no warp: no lock-step execution, no warp-synchronous
//   programming, no __shfl*/__ballot*/__syncwarp (they are deliberately not
//   declared, so code that uses them does not compile). Timing is meaningless.
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

// Standard headers come first, before the CUDA keyword macros below are
// defined: libstdc++'s <memory> uses __attribute__((__noinline__)), which the
// __noinline__ macro would break if <memory> were included after it (its
// include guard keeps a later #include <memory> in the user's code harmless).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// --- Sanitizer detection ----------------------------------------------------
#if defined(__SANITIZE_THREAD__)
#define AN5D_EMU_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define AN5D_EMU_UNDER_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define AN5D_EMU_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AN5D_EMU_UNDER_ASAN 1
#endif
#endif

// --- CUDA keywords ----------------------------------------------------------
// __restrict__ is a native keyword of g++ and clang++ and is left alone.
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#if defined(__ELF__) && !defined(AN5D_EMU_NO_SHARED_SECTION) && \
    (defined(__clang__) || defined(AN5D_EMU_FORCE_SHARED_SECTION))
#define AN5D_EMU_SHARED_SECTION 1
#define __shared__ static __attribute__((section("an5d_shared")))
#else
#define __shared__ static
#endif

// Dynamic shared memory (see the header comment).
#define AN5D_DYNAMIC_SHARED(T, name) \
  T* name = reinterpret_cast<T*>(::an5d_emu::detail::tl_dyn_smem)

#ifdef AN5D_EMU_SHARED_SECTION
// Bounds of the "an5d_shared" section, provided by the linker; weak so that a
// program without any __shared__ variable still links (then both are null).
extern "C" {
extern char __start_an5d_shared[] __attribute__((weak));
extern char __stop_an5d_shared[] __attribute__((weak));
}
#endif

// --- Vector types and built-in variables -----------------------------------
struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define AN5D_EMU_VEC2(T, N, A)                                             \
  struct alignas(A) N##2 { T x, y; };                                      \
  inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define AN5D_EMU_VEC3(T, N)                                                \
  struct N##3 { T x, y, z; };                                              \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define AN5D_EMU_VEC4(T, N, A)                                             \
  struct alignas(A) N##4 { T x, y, z, w; };                                \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
AN5D_EMU_VEC2(float, float, 8)
AN5D_EMU_VEC3(float, float)
AN5D_EMU_VEC4(float, float, 16)
AN5D_EMU_VEC2(double, double, 16)
AN5D_EMU_VEC3(double, double)
AN5D_EMU_VEC4(double, double, 16)
AN5D_EMU_VEC2(int, int, 8)
AN5D_EMU_VEC3(int, int)
AN5D_EMU_VEC4(int, int, 16)
AN5D_EMU_VEC2(unsigned int, uint, 8)
AN5D_EMU_VEC4(unsigned int, uint, 16)
#undef AN5D_EMU_VEC2
#undef AN5D_EMU_VEC3
#undef AN5D_EMU_VEC4
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }

// Set by the emulator in every worker thread before each block.
inline thread_local uint3 threadIdx = {0, 0, 0};
inline thread_local uint3 blockIdx = {0, 0, 0};
inline thread_local dim3 blockDim = dim3(1, 1, 1);
inline thread_local dim3 gridDim = dim3(1, 1, 1);
inline constexpr int warpSize = 32;

// --- Runtime API types ------------------------------------------------------
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorLaunchOutOfResources = 701,
};
typedef cudaError_t cudaError;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3,
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int concurrentKernels;
  int unifiedAddressing;
};

struct an5d_emu_event {
  std::chrono::steady_clock::time_point when;
  bool recorded = false;
};
typedef an5d_emu_event* cudaEvent_t;
struct an5d_emu_stream {};
typedef an5d_emu_stream* cudaStream_t;  // only the default stream (0) exists
#define cudaEventDefault 0x00u
#define cudaEventBlockingSync 0x01u
#define cudaEventDisableTiming 0x02u
#define cudaStreamDefault 0x00u
#define cudaStreamNonBlocking 0x01u

// --- Emulator internals -----------------------------------------------------
namespace an5d_emu {
namespace detail {

[[noreturn]] inline void fatal(const char* msg) {
  std::fprintf(stderr, "an5d_emu: fatal: %s\n", msg);
  std::fflush(stderr);
  std::abort();
}

inline long env_long(const char* name, long dflt) {
  const char* s = std::getenv(name);
  if (!s || !*s) return dflt;
  char* end = nullptr;
  long v = std::strtol(s, &end, 10);
  return (end && *end == '\0') ? v : dflt;
}

inline bool poison_enabled() {
  static const bool on = env_long("AN5D_EMU_POISON", 1) != 0;
  return on;
}

inline thread_local cudaError_t last_error = cudaSuccess;
inline cudaError_t record(cudaError_t e) {
  if (e != cudaSuccess) last_error = e;
  return e;
}

// State of an emulated device thread (null/false on host threads).
class BlockBarrier;
inline thread_local BlockBarrier* tl_barrier = nullptr;
inline thread_local unsigned tl_linear_tid = 0;
inline thread_local unsigned char* tl_dyn_smem = nullptr;
inline thread_local bool tl_in_kernel = false;

// Fill all static __shared__ arrays (clang only) and the launch's dynamic
// shared memory with 0xFF. Called before each block, by a thread that then
// hands over to the block's threads through a mutex.
inline void poison_shared(unsigned char* dyn, size_t dyn_bytes) {
  if (!poison_enabled()) return;
#ifdef AN5D_EMU_SHARED_SECTION
  uintptr_t b = reinterpret_cast<uintptr_t>(&__start_an5d_shared[0]);
  uintptr_t e = reinterpret_cast<uintptr_t>(&__stop_an5d_shared[0]);
  if (b != 0 && e > b) std::memset(reinterpret_cast<void*>(b), 0xFF, e - b);
#endif
  if (dyn && dyn_bytes) std::memset(dyn, 0xFF, dyn_bytes);
}

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

  BlockBarrier(unsigned nthreads, unsigned char* dyn, size_t dyn_bytes)
      : n_(nthreads),
        live_(nthreads),
        ngroups_((nthreads + kGroup - 1) / kGroup),
        groups_(new Group[(nthreads + kGroup - 1) / kGroup]),
        dyn_(dyn),
        dyn_bytes_(dyn_bytes) {}
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
};

struct Job {
  dim3 grid, block;
  unsigned nthreads;
  uint64_t nblocks;
  void (*invoke)(const void*);
  const void* ctx;
  BlockBarrier* barrier;
  unsigned char* dyn_smem;
};

inline void run_thread(const Job& job, unsigned tid) {
  tl_in_kernel = true;
  tl_barrier = job.barrier;
  tl_linear_tid = tid;
  tl_dyn_smem = job.dyn_smem;
  const unsigned bx = job.block.x, by = job.block.y;
  threadIdx = uint3{tid % bx, (tid / bx) % by, tid / (bx * by)};
  blockDim = job.block;
  gridDim = job.grid;
  const uint64_t gx = job.grid.x, gy = job.grid.y;
  for (uint64_t b = 0; b < job.nblocks; ++b) {
    blockIdx = uint3{static_cast<unsigned>(b % gx), static_cast<unsigned>((b / gx) % gy),
                     static_cast<unsigned>(b / (gx * gy))};
    job.invoke(job.ctx);
    job.barrier->finish(tid);
  }
  tl_in_kernel = false;
  tl_barrier = nullptr;
  tl_dyn_smem = nullptr;
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

  static size_t stack_bytes() {
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

  bool spawn_locked() {
    if (nworkers_ >= kMaxWorkers) return false;
    static const size_t stack = stack_bytes();
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

inline std::mutex& launch_mutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}

inline cudaError_t check_config(dim3 grid, dim3 block, size_t smem) {
  if (block.x == 0 || block.y == 0 || block.z == 0 || block.x > 1024 || block.y > 1024 ||
      block.z > 64)
    return cudaErrorInvalidConfiguration;
  if (static_cast<uint64_t>(block.x) * block.y * block.z > 1024)
    return cudaErrorInvalidConfiguration;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 2147483647u || grid.y > 65535 ||
      grid.z > 65535)
    return cudaErrorInvalidConfiguration;
  if (smem > 227 * 1024) return cudaErrorInvalidValue;
  return cudaSuccess;
}

inline void launch_impl(dim3 grid, dim3 block, size_t smem, void (*invoke)(const void*),
                        const void* ctx) {
  if (tl_in_kernel) fatal("kernel launch from device code is not supported");
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
  BlockBarrier barrier(nthreads, dyn, smem);
  Job job{grid,   block, nthreads, static_cast<uint64_t>(grid.x) * grid.y * grid.z,
          invoke, ctx,   &barrier, dyn};
  record(pool().run(job));
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

// --- Device memory bookkeeping ----------------------------------------------
struct Allocations {
  std::mutex m;
  std::map<uintptr_t, size_t> blocks;  // base -> size
};
inline Allocations& allocations() {
  static Allocations* a = new Allocations;
  return *a;
}

// Is [p, p+n) inside one live cudaMalloc allocation?
inline bool in_device_memory(const void* p, size_t n) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  Allocations& al = allocations();
  std::lock_guard<std::mutex> lk(al.m);
  auto it = al.blocks.upper_bound(a);
  if (it == al.blocks.begin()) return false;
  --it;
  return a >= it->first && n <= it->second && a - it->first <= it->second - n;
}

inline cudaError_t device_malloc(void** ptr, size_t size) {
  if (!ptr) return record(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (size == 0) return cudaSuccess;
  void* p = nullptr;
  if (posix_memalign(&p, 256, size) != 0 || !p) return record(cudaErrorMemoryAllocation);
  std::memset(p, poison_enabled() ? 0xFF : 0, size);
  Allocations& al = allocations();
  {
    std::lock_guard<std::mutex> lk(al.m);
    al.blocks[reinterpret_cast<uintptr_t>(p)] = size;
  }
  *ptr = p;
  return cudaSuccess;
}

inline cudaError_t bad_device_range(const char* fn, const char* which, const void* p, size_t n) {
  std::fprintf(stderr,
               "an5d_emu: %s: %s range [%p, +%zu) is not inside one cudaMalloc allocation\n", fn,
               which, p, n);
  return record(cudaErrorInvalidValue);
}

inline double elapsed_ms(std::chrono::steady_clock::time_point a,
                         std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace detail
}  // namespace an5d_emu

// --- Kernel launch ----------------------------------------------------------
// Runs the whole grid synchronously. Invalid configurations are recorded for
// cudaGetLastError() (cudaErrorInvalidConfiguration) and nothing runs.
template <class... P, class... A>
void an5d_emu_launch_smem(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem_bytes,
                          A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel launched with a wrong number of arguments");
  using Tuple = std::tuple<std::decay_t<P>...>;
  using C = an5d_emu::detail::Closure<Tuple, void (*)(P...)>;
  C closure{kernel, Tuple(std::forward<A>(args)...)};
  an5d_emu::detail::launch_impl(grid, block, smem_bytes, &C::invoke, &closure);
}

// Launches like an5d_emu_launch_smem; with AN5D_EMU_TRACE=1 in the environment
// it first prints the kernel's name and launch shape to stderr, so that tests can
// see which kernel a launch gave which blocks.
template <class... P, class... A>
void an5d_emu_launch_named(const char* name, void (*kernel)(P...), dim3 grid, dim3 block,
                           size_t smem_bytes, A&&... args) {
  if (an5d_emu::detail::env_long("AN5D_EMU_TRACE", 0) != 0)
    std::fprintf(stderr, "an5d_emu: launch %s grid %u,%u,%u block %u,%u,%u\n", name, grid.x,
                 grid.y, grid.z, block.x, block.y, block.z);
  an5d_emu_launch_smem(kernel, grid, block, smem_bytes, std::forward<A>(args)...);
}

template <class... P, class... A>
void an5d_emu_launch(void (*kernel)(P...), dim3 grid, dim3 block, A&&... args) {
  an5d_emu_launch_smem(kernel, grid, block, 0, std::forward<A>(args)...);
}

// --- Synchronisation and device built-ins -----------------------------------
namespace an5d_emu {
namespace detail {
inline int sync_block(int pred, int* participants) {
  if (!tl_barrier) fatal("__syncthreads() called outside a kernel");
  return tl_barrier->sync(tl_linear_tid, pred, participants);
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
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline long long clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Read-only cache load.
template <class T>
inline T __ldg(const T* p) {
  return *p;
}

// Asynchronous copies of <cuda_pipeline.h>: the emulation copies at once,
// which is one of the orders the real copy may take.
inline void __pipeline_memcpy_async(void* dst, const void* src, size_t size,
                                    size_t zfill = 0) {
  std::memcpy(dst, src, size - zfill);
  std::memset(static_cast<char*>(dst) + (size - zfill), 0, zfill);
}
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(size_t) {}

// Math: sqrtf, sqrt, fabsf, expf, powf, fmaxf, fminf, ... come from <math.h>
// and <cmath> (overloads for float are in the global namespace).
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline float fdividef(float a, float b) { return a / b; }
inline float __fdividef(float a, float b) { return a / b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline int __float_as_int(float x) { int i; std::memcpy(&i, &x, sizeof i); return i; }
inline float __int_as_float(int i) { float x; std::memcpy(&x, &i, sizeof x); return x; }
inline unsigned __float_as_uint(float x) { unsigned i; std::memcpy(&i, &x, sizeof i); return i; }
inline float __uint_as_float(unsigned i) { float x; std::memcpy(&x, &i, sizeof x); return x; }
inline long long __double_as_longlong(double x) { long long i; std::memcpy(&i, &x, sizeof i); return i; }
inline double __longlong_as_double(long long i) { double x; std::memcpy(&x, &i, sizeof x); return x; }
inline int __mul24(int a, int b) { return a * b; }
inline unsigned __umul24(unsigned a, unsigned b) { return a * b; }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }

// min/max as in CUDA: non-template overloads win over std::min/std::max when
// code says `using namespace std;`.
#define AN5D_EMU_MINMAX(T)                                  \
  inline T min(T a, T b) { return b < a ? b : a; }         \
  inline T max(T a, T b) { return a < b ? b : a; }
AN5D_EMU_MINMAX(int)
AN5D_EMU_MINMAX(unsigned int)
AN5D_EMU_MINMAX(long)
AN5D_EMU_MINMAX(unsigned long)
AN5D_EMU_MINMAX(long long)
AN5D_EMU_MINMAX(unsigned long long)
#undef AN5D_EMU_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
// Mixed arithmetic types: the usual arithmetic conversions, like CUDA's
// mixed-type overloads.
template <class A, class B,
          class = std::enable_if_t<!std::is_same<A, B>::value && std::is_arithmetic<A>::value &&
                                   std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  return min(static_cast<C>(a), static_cast<C>(b));
}
template <class A, class B,
          class = std::enable_if_t<!std::is_same<A, B>::value && std::is_arithmetic<A>::value &&
                                   std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  return max(static_cast<C>(a), static_cast<C>(b));
}

// Atomics (sequentially consistent; ThreadSanitizer understands them).
#define AN5D_EMU_ATOMIC_INT(T)                                                              \
  inline T atomicAdd(T* a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); }    \
  inline T atomicSub(T* a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); }    \
  inline T atomicAnd(T* a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); }    \
  inline T atomicOr(T* a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }      \
  inline T atomicXor(T* a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); }    \
  inline T atomicExch(T* a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); }  \
  inline T atomicCAS(T* a, T cmp, T v) {                                                  \
    __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
    return cmp;                                                                           \
  }                                                                                       \
  inline T atomicMin(T* a, T v) {                                                         \
    T old = __atomic_load_n(a, __ATOMIC_SEQ_CST);                                         \
    while (v < old && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_SEQ_CST,    \
                                                   __ATOMIC_SEQ_CST)) {                   \
    }                                                                                     \
    return old;                                                                           \
  }                                                                                       \
  inline T atomicMax(T* a, T v) {                                                         \
    T old = __atomic_load_n(a, __ATOMIC_SEQ_CST);                                         \
    while (old < v && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_SEQ_CST,    \
                                                   __ATOMIC_SEQ_CST)) {                   \
    }                                                                                     \
    return old;                                                                           \
  }
AN5D_EMU_ATOMIC_INT(int)
AN5D_EMU_ATOMIC_INT(unsigned int)
AN5D_EMU_ATOMIC_INT(unsigned long long)
#undef AN5D_EMU_ATOMIC_INT
#define AN5D_EMU_ATOMIC_FP(T)                                                               \
  inline T atomicAdd(T* a, T v) {                                                         \
    T old, next;                                                                          \
    __atomic_load(a, &old, __ATOMIC_SEQ_CST);                                             \
    do {                                                                                  \
      next = old + v;                                                                     \
    } while (!__atomic_compare_exchange(a, &old, &next, true, __ATOMIC_SEQ_CST,           \
                                        __ATOMIC_SEQ_CST));                               \
    return old;                                                                           \
  }                                                                                       \
  inline T atomicExch(T* a, T v) {                                                        \
    T old;                                                                                \
    __atomic_exchange(a, &v, &old, __ATOMIC_SEQ_CST);                                     \
    return old;                                                                           \
  }
AN5D_EMU_ATOMIC_FP(float)
AN5D_EMU_ATOMIC_FP(double)
#undef AN5D_EMU_ATOMIC_FP

// --- Runtime API --------------------------------------------------------------
inline const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
  }
  return "cudaErrorUnknown";
}

inline const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
  }
  return "unknown error";
}

inline cudaError_t cudaGetLastError() {
  cudaError_t e = an5d_emu::detail::last_error;
  an5d_emu::detail::last_error = cudaSuccess;
  return e;
}
inline cudaError_t cudaPeekAtLastError() { return an5d_emu::detail::last_error; }

template <class T>
inline cudaError_t cudaMalloc(T** ptr, size_t size) {
  if (!ptr) return an5d_emu::detail::record(cudaErrorInvalidValue);
  void* p = nullptr;
  cudaError_t e = an5d_emu::detail::device_malloc(&p, size);
  *ptr = static_cast<T*>(p);
  return e;
}
template <class T>
inline cudaError_t cudaMallocManaged(T** ptr, size_t size, unsigned = 1) {
  return cudaMalloc(ptr, size);
}

inline cudaError_t cudaFree(void* p) {
  if (!p) return cudaSuccess;
  an5d_emu::detail::Allocations& al = an5d_emu::detail::allocations();
  {
    std::lock_guard<std::mutex> lk(al.m);
    auto it = al.blocks.find(reinterpret_cast<uintptr_t>(p));
    if (it == al.blocks.end()) {
      std::fprintf(stderr, "an5d_emu: cudaFree(%p): not a cudaMalloc pointer (or freed twice)\n",
                   p);
      return an5d_emu::detail::record(cudaErrorInvalidValue);
    }
    al.blocks.erase(it);
  }
  std::free(p);
  return cudaSuccess;
}

template <class T>
inline cudaError_t cudaMallocHost(T** ptr, size_t size) {
  if (!ptr) return an5d_emu::detail::record(cudaErrorInvalidValue);
  *ptr = static_cast<T*>(std::malloc(size ? size : 1));
  return *ptr ? cudaSuccess : an5d_emu::detail::record(cudaErrorMemoryAllocation);
}
template <class T>
inline cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned) {
  return cudaMallocHost(ptr, size);
}
inline cudaError_t cudaFreeHost(void* p) {
  std::free(p);
  return cudaSuccess;
}

inline cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  using namespace an5d_emu::detail;
  if (count == 0) return cudaSuccess;
  if (static_cast<int>(kind) < 0 || static_cast<int>(kind) > 4)
    return record(cudaErrorInvalidMemcpyDirection);
  if (!dst || !src) return record(cudaErrorInvalidValue);
  const bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (dst_dev && !in_device_memory(dst, count))
    return bad_device_range("cudaMemcpy", "destination", dst, count);
  if (src_dev && !in_device_memory(src, count))
    return bad_device_range("cudaMemcpy", "source", src, count);
  std::memcpy(dst, src, count);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                   cudaStream_t = nullptr) {
  return cudaMemcpy(dst, src, count, kind);
}

inline cudaError_t cudaMemset(void* dst, int value, size_t count) {
  using namespace an5d_emu::detail;
  if (count == 0) return cudaSuccess;
  if (!in_device_memory(dst, count)) return bad_device_range("cudaMemset", "destination", dst, count);
  std::memset(dst, value, count);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* dst, int value, size_t count, cudaStream_t = nullptr) {
  return cudaMemset(dst, value, count);
}

// __constant__/__device__ variables are plain globals.
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count,
                                      size_t offset = 0,
                                      cudaMemcpyKind = cudaMemcpyHostToDevice) {
  if (offset > sizeof(T) || count > sizeof(T) - offset)
    return an5d_emu::detail::record(cudaErrorInvalidValue);
  std::memcpy(reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset, src, count);
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count,
                                        size_t offset = 0,
                                        cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset > sizeof(T) || count > sizeof(T) - offset)
    return an5d_emu::detail::record(cudaErrorInvalidValue);
  std::memcpy(dst, reinterpret_cast<const char*>(&symbol) + offset, count);
  return cudaSuccess;
}

inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline cudaError_t cudaThreadSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetDeviceCount(int* n) {
  if (!n) return an5d_emu::detail::record(cudaErrorInvalidValue);
  *n = 1;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int d) {
  return d == 0 ? cudaSuccess : an5d_emu::detail::record(cudaErrorInvalidDevice);
}
inline cudaError_t cudaGetDevice(int* d) {
  if (!d) return an5d_emu::detail::record(cudaErrorInvalidValue);
  *d = 0;
  return cudaSuccess;
}

inline int an5d_emu_sm_count() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? static_cast<int>(n) : 1;
}

inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  if (!p) return an5d_emu::detail::record(cudaErrorInvalidValue);
  if (d != 0) return an5d_emu::detail::record(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "%s", "an5d CPU emulation");
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  p->totalGlobalMem = pages > 0 && page > 0 ? static_cast<size_t>(pages) * page : (size_t(1) << 32);
  p->sharedMemPerBlock = 49152;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->clockRate = 1000000;
  p->totalConstMem = 65536;
  p->major = 9;
  p->minor = 0;
  p->multiProcessorCount = an5d_emu_sm_count();
  p->memoryClockRate = 1000000;
  p->memoryBusWidth = 64;
  p->l2CacheSize = 1 << 20;
  p->maxThreadsPerMultiProcessor = 2048;
  p->sharedMemPerMultiprocessor = 233472;
  p->regsPerMultiprocessor = 65536;
  p->sharedMemPerBlockOptin = 232448;
  p->concurrentKernels = 0;
  p->unifiedAddressing = 1;
  return cudaSuccess;
}

inline cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr attr, int d) {
  if (!v) return an5d_emu::detail::record(cudaErrorInvalidValue);
  cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, d);
  if (e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrWarpSize: *v = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *v = p.regsPerBlock; break;
    case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *v = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *v = static_cast<int>(p.sharedMemPerBlockOptin);
      break;
    default: return an5d_emu::detail::record(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

inline cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  long avail = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (free_bytes)
    *free_bytes = avail > 0 && page > 0 ? static_cast<size_t>(avail) * page : p.totalGlobalMem;
  if (total_bytes) *total_bytes = p.totalGlobalMem;
  return cudaSuccess;
}

template <class F>
inline cudaError_t cudaFuncSetAttribute(F*, cudaFuncAttribute, int) {
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaFuncSetCacheConfig(F*, cudaFuncCache) {
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }

inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
  if (!e) return an5d_emu::detail::record(cudaErrorInvalidValue);
  *e = new an5d_emu_event;
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { return cudaEventCreate(e); }
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) {
  if (!e) return an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
  e->when = std::chrono::steady_clock::now();
  e->recorded = true;
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  return e ? cudaSuccess : an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
}
inline cudaError_t cudaEventQuery(cudaEvent_t e) {
  return e ? cudaSuccess : an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
}
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return an5d_emu::detail::record(cudaErrorInvalidValue);
  if (!start || !end || !start->recorded || !end->recorded)
    return an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
  *ms = static_cast<float>(an5d_emu::detail::elapsed_ms(start->when, end->when));
  return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}

inline cudaError_t cudaStreamCreate(cudaStream_t* s) {
  if (!s) return an5d_emu::detail::record(cudaErrorInvalidValue);
  *s = nullptr;  // everything runs on the (synchronous) default stream
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned) {
  return cudaStreamCreate(s);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
// Launches run to completion when made, so every event is already complete.
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t e, unsigned = 0) {
  return e ? cudaSuccess : an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
}

// A generated kernel's own consistency check failed: the emulated run ends.
[[noreturn]] inline void an5d_emu_fail(const char* what) { an5d_emu::detail::fatal(what); }

#endif  // AN5D_EMU_H_INCLUDED
