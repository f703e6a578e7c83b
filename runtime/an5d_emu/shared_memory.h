// an5d_emu/shared_memory.h - part of an5d_emu.h: the emulator's basic helpers,
// shared-memory poisoning, asynchronous copies that land only at the wait that
// covers them, and the shared-memory race check (an5d_emu/race_check.h).
#pragma once

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
class FiberRunner;
struct ThreadMemory;
class BlockMemory;
inline thread_local ThreadMemory* tl_memory = nullptr;
inline thread_local BlockBarrier* tl_barrier = nullptr;   // OS threads
inline thread_local FiberRunner* tl_fibers = nullptr;     // fibers
inline thread_local unsigned tl_linear_tid = 0;
inline thread_local unsigned char* tl_dyn_smem = nullptr;
inline thread_local bool tl_in_kernel = false;

// Functions that touch shared memory on the emulator's behalf (or run inside
// the race check's hooks) are not instrumented: their accesses are not the
// program's, and an instrumented hook would call itself.
#ifdef AN5D_EMU_RACE_CHECK
#define AN5D_EMU_UNCHECKED __attribute__((no_sanitize("kernel-address"), optimize("O2")))
#else
#define AN5D_EMU_UNCHECKED
#endif

// Fill all static __shared__ arrays (clang only) and the launch's dynamic
// shared memory with 0xFF. Called before each block, by a thread that then
// hands over to the block's threads through a mutex.
AN5D_EMU_UNCHECKED inline void poison_shared(unsigned char* dyn, size_t dyn_bytes) {
  if (!poison_enabled()) return;
#ifdef AN5D_EMU_SHARED_SECTION
  uintptr_t b = reinterpret_cast<uintptr_t>(&__start_an5d_shared[0]);
  uintptr_t e = reinterpret_cast<uintptr_t>(&__stop_an5d_shared[0]);
  if (b != 0 && e > b) std::memset(reinterpret_cast<void*>(b), 0xFF, e - b);
#endif
  if (dyn && dyn_bytes) std::memset(dyn, 0xFF, dyn_bytes);
}

// Where the running launch's shared memory lies: the dynamic buffer, then the
// "an5d_shared" section (static __shared__ arrays, clang only). An offset
// counts from the dynamic buffer's start, the section's bytes following it.
struct SharedSpace {
  unsigned char* dyn = nullptr;
  size_t dyn_bytes = 0;
  unsigned char* sec = nullptr;
  size_t sec_bytes = 0;

  size_t bytes() const { return dyn_bytes + sec_bytes; }
  // Offset of address p, or SIZE_MAX when p is not shared memory.
  AN5D_EMU_UNCHECKED size_t offset(const void* p) const {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    if (a - reinterpret_cast<uintptr_t>(dyn) < dyn_bytes) return a - reinterpret_cast<uintptr_t>(dyn);
    if (a - reinterpret_cast<uintptr_t>(sec) < sec_bytes)
      return dyn_bytes + (a - reinterpret_cast<uintptr_t>(sec));
    return SIZE_MAX;
  }
};

// The running launch's shared memory, read by the race check's hooks. Written
// by the launching thread before the workers start and after they finished.
inline SharedSpace g_space;

// One __pipeline_memcpy_async that has not landed yet.
struct AsyncCopy {
  unsigned char* dst;
  const unsigned char* src;
  size_t bytes, zeros;
  uint64_t group;  // commit group, from 1 in each block; 0 while not committed
};

// Kinds of logged shared-memory accesses.
enum : uint8_t {
  kRead = 0,
  kWrite = 1,
  kCopy = 2,        // the destination of an asynchronous copy not landed yet
  kOwnPending = 4,  // flag: touches the thread's own copy before it landed
};

// A shared-memory access of one thread since its last barrier.
struct Access {
  uint32_t off;
  uint16_t bytes;
  uint8_t kind;
};

// What the emulation keeps for one CUDA thread of the running block.
struct ThreadMemory {
  BlockMemory* block = nullptr;
  unsigned tid = 0;
  std::deque<AsyncCopy> copies;  // issue order, so committed groups come first
  uint64_t committed = 0;        // groups committed in this block
  std::vector<Access> log;       // race check: accesses since the last barrier
  uint32_t epoch = 1;            // barriers passed, for `seen`
  // The last few logged accesses, so that a loop over the same cells logs them once.
  struct Seen {
    uint32_t off, epoch;
    uint16_t bytes;
    uint8_t kind;
  } seen[64] = {};
};

[[noreturn]] inline void fail_exit() {
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(70);
}

// The launch whose blocks run now, as messages name it.
struct LaunchInfo {
  const char* kernel;
  dim3 block;
  SharedSpace space;

  std::string thread_name(unsigned tid) const {
    char buf[48];
    std::snprintf(buf, sizeof buf, "(%u,%u,%u)", tid % block.x, tid / block.x % block.y,
                  tid / (block.x * block.y));
    return buf;
  }

  // "264 of the dynamic shared memory" for an offset in the space.
  std::string where(size_t off) const {
    char buf[96];
    if (off == SIZE_MAX)
      std::snprintf(buf, sizeof buf, "(not in this launch's shared memory)");
    else if (off < space.dyn_bytes)
      std::snprintf(buf, sizeof buf, "%zu of the dynamic shared memory", off);
    else
      std::snprintf(buf, sizeof buf, "%zu of the static __shared__ section", off - space.dyn_bytes);
    return buf;
  }
};

}  // namespace detail
}  // namespace an5d_emu
