// an5d_emu/race_check.h - part of an5d_emu.h, compiled in with
// AN5D_EMU_RACE_CHECK (an5dc-emucc defines it unless --no-race-check): reports
// shared memory that one thread writes and another thread accesses with no
// __syncthreads() between them, and a thread's accesses to the destination of
// its own asynchronous copy before a wait covered the copy.
//
// The program is compiled with -fsanitize=kernel-address and outline
// instrumentation: every load and store calls __asan_{load,store}N_noabort,
// defined at the end of this file (kernel-address links no sanitizer runtime;
// the "kernel" provides these). A hook ignores addresses outside the running
// launch's shared memory; inside it, the thread appends the access to its own
// log (no lock, nothing shared). When the block passes a barrier, the thread
// that releases it replays every thread's log into a shadow map of the shared
// bytes (which threads accessed a byte since the last barrier, which one wrote
// it) and reports the first byte that one thread wrote and another accessed.
// The replay goes thread by thread, each log in program order, so the report
// is the same in every run whatever the interleaving was.
#pragma once
#ifdef AN5D_EMU_RACE_CHECK

namespace an5d_emu {
namespace detail {

class RaceCheck {
 public:
  explicit RaceCheck(const LaunchInfo& info)
      : info_(info),
        bytes_(info.space.bytes()),
        shadow_(new Shadow[bytes_ ? bytes_ : 1]()),
        pending_(new std::atomic<uint16_t>[bytes_ / 4 + 1]()) {}

  // Marks the 4-byte granules of [p, p + bytes) as the destination of a copy of
  // thread owner - 1 that has not landed (owner 0: of none).
  AN5D_EMU_UNCHECKED void mark_pending(const void* p, size_t bytes, unsigned owner) {
    const size_t off = info_.space.offset(p);
    if (off == SIZE_MAX || bytes == 0) return;
    const size_t last = (std::min(off + bytes, bytes_) - 1) / 4;
    for (size_t g = off / 4; g <= last; ++g)
      pending_[g].store(static_cast<uint16_t>(owner), std::memory_order_relaxed);
  }

  // An access of thread m at offset `off` of the shared memory: kRead or
  // kWrite by the program, kCopy when one of its copies lands.
  AN5D_EMU_UNCHECKED void note(ThreadMemory& m, size_t off, size_t bytes, uint8_t kind) {
    if (bytes == 0) return;
    if (bytes > bytes_ - off) bytes = bytes_ - off;
    const uint16_t me = static_cast<uint16_t>(m.tid + 1);
    for (size_t g = off / 4; g <= (off + bytes - 1) / 4; ++g)
      if (pending_[g].load(std::memory_order_relaxed) == me) kind |= kOwnPending;
    ThreadMemory::Seen& s = m.seen[(off >> 2) & 63];
    if (s.epoch == m.epoch && s.off == off && s.bytes == bytes && s.kind == kind) return;
    for (size_t done = 0; done < bytes; done += 0xFFFF) {
      const size_t part = std::min<size_t>(bytes - done, 0xFFFF);
      m.log.push_back(
          Access{static_cast<uint32_t>(off + done), static_cast<uint16_t>(part), kind});
    }
    s = ThreadMemory::Seen{static_cast<uint32_t>(off), m.epoch, static_cast<uint16_t>(bytes),
                           kind};
  }

  // Copy c of thread m landed: its destination is written now.
  AN5D_EMU_UNCHECKED void landed(ThreadMemory& m, const AsyncCopy& c) {
    mark_pending(c.dst, c.bytes, 0);
    const size_t off = info_.space.offset(c.dst);
    if (off != SIZE_MAX) note(m, off, c.bytes, kCopy);
  }

  // The block's threads pass a barrier: replays the logs of the epoch that ends
  // (every copy still pending counts as its thread's write in every epoch
  // until it lands), reports the first conflict, and starts the next epoch.
  AN5D_EMU_UNCHECKED void end_epoch(ThreadMemory* threads, unsigned n) {
    if (++stamp_ == 0) {
      for (size_t b = 0; b < bytes_; ++b) shadow_[b].stamp = 0;
      stamp_ = 1;
    }
    for (unsigned t = 0; t < n; ++t) {
      ThreadMemory& m = threads[t];
      for (const Access& a : m.log) {
        if (a.kind & kOwnPending) own_pending(t, a);
        replay(t, a.off, a.bytes, a.kind);
      }
      for (const AsyncCopy& c : m.copies) {
        const size_t off = info_.space.offset(c.dst);
        if (off != SIZE_MAX) replay(t, off, c.bytes, kCopy);
      }
      m.log.clear();
      ++m.epoch;
    }
  }

 private:
  static constexpr uint16_t kNone = 0xFFFF;

  // Who touched a shared byte in the epoch `stamp`.
  struct Shadow {
    uint32_t stamp;
    uint16_t first;   // the first thread to access it
    uint16_t other;   // the first other thread to access it, or kNone
    uint16_t writer;  // the last thread to write it, or kNone
    uint8_t writer_kind;
  };

  AN5D_EMU_UNCHECKED void replay(unsigned tid, size_t off, size_t bytes, uint8_t kind) {
    kind &= kWrite | kCopy;
    const uint16_t t = static_cast<uint16_t>(tid);
    const bool write = kind != kRead;
    for (size_t b = off; b < off + bytes && b < bytes_; ++b) {
      Shadow& s = shadow_[b];
      if (s.stamp != stamp_) {
        s = Shadow{stamp_, t, kNone, write ? t : kNone, kind};
        continue;
      }
      const uint16_t other = s.first != t ? s.first : s.other;
      if (write) {
        if (other != kNone) race(b, other, other == s.writer ? s.writer_kind : kRead, t, kind);
        s.writer = t;
        s.writer_kind = kind;
      } else if (s.writer != kNone && s.writer != t) {
        race(b, s.writer, s.writer_kind, t, kind);
      }
      if (s.first != t && s.other == kNone) s.other = t;
    }
  }

  static const char* verb(uint8_t kind) {
    if (kind == kCopy) return "written by an asynchronous copy";
    return kind == kWrite ? "written" : "read";
  }

  [[noreturn]] void race(size_t byte, unsigned t1, uint8_t k1, unsigned t2, uint8_t k2) const {
    std::fprintf(stderr,
                 "an5d_emu: error: shared-memory race in kernel %s, block (%u,%u,%u): byte %s "
                 "is %s by thread %s and %s by thread %s with no __syncthreads() between them%s\n",
                 info_.kernel, blockIdx.x, blockIdx.y, blockIdx.z, info_.where(byte).c_str(),
                 verb(k1), info_.thread_name(t1).c_str(), verb(k2), info_.thread_name(t2).c_str(),
                 k1 == kCopy || k2 == kCopy
                     ? " (a copy lands at the __pipeline_wait_prior that covers it, and other "
                       "threads see it after the __syncthreads() that follows)"
                     : "");
    fail_exit();
  }

  [[noreturn]] void own_pending(unsigned tid, const Access& a) const {
    std::fprintf(stderr,
                 "an5d_emu: error: kernel %s, block (%u,%u,%u): thread %s %s byte %s before its "
                 "asynchronous copy into it landed (no __pipeline_wait_prior covered the copy)\n",
                 info_.kernel, blockIdx.x, blockIdx.y, blockIdx.z,
                 info_.thread_name(tid).c_str(), (a.kind & kWrite) ? "wrote" : "read",
                 info_.where(a.off).c_str());
    fail_exit();
  }

  const LaunchInfo& info_;
  const size_t bytes_;
  std::unique_ptr<Shadow[]> shadow_;
  std::unique_ptr<std::atomic<uint16_t>[]> pending_;
  uint32_t stamp_ = 0;
};

// The race check of the running launch (null between launches).
inline RaceCheck* g_race_check = nullptr;

// A load or store of the program: logged when it is in shared memory and made
// by an emulated thread.
AN5D_EMU_UNCHECKED inline void shared_access(const void* p, size_t bytes, bool write) {
  const size_t off = g_space.offset(p);
  if (off == SIZE_MAX) return;
  ThreadMemory* m = tl_memory;
  if (m && g_race_check) g_race_check->note(*m, off, bytes, write ? kWrite : kRead);
}

}  // namespace detail
}  // namespace an5d_emu

// The instrumentation's callbacks (weak: one definition even if several
// translation units include this header).
extern "C" {
#define AN5D_EMU_HOOKS(n)                                                              \
  __attribute__((weak)) AN5D_EMU_UNCHECKED void __asan_load##n##_noabort(void* p) {  \
    an5d_emu::detail::shared_access(p, n, false);                                      \
  }                                                                                    \
  __attribute__((weak)) AN5D_EMU_UNCHECKED void __asan_store##n##_noabort(void* p) { \
    an5d_emu::detail::shared_access(p, n, true);                                       \
  }
AN5D_EMU_HOOKS(1)
AN5D_EMU_HOOKS(2)
AN5D_EMU_HOOKS(4)
AN5D_EMU_HOOKS(8)
AN5D_EMU_HOOKS(16)
#undef AN5D_EMU_HOOKS
__attribute__((weak)) AN5D_EMU_UNCHECKED void __asan_loadN_noabort(void* p, long n) {
  an5d_emu::detail::shared_access(p, static_cast<size_t>(n), false);
}
__attribute__((weak)) AN5D_EMU_UNCHECKED void __asan_storeN_noabort(void* p, long n) {
  an5d_emu::detail::shared_access(p, static_cast<size_t>(n), true);
}
__attribute__((weak)) AN5D_EMU_UNCHECKED void __asan_handle_no_return() {}
// clang (-mllvm -asan-kernel-mem-intrinsic-prefix) calls these for memcpy,
// memmove and memset, and for copies of structures it turns into them.
__attribute__((weak)) AN5D_EMU_UNCHECKED void* __asan_memcpy(void* d, const void* s, size_t n) {
  an5d_emu::detail::shared_access(s, n, false);
  an5d_emu::detail::shared_access(d, n, true);
  return std::memcpy(d, s, n);
}
__attribute__((weak)) AN5D_EMU_UNCHECKED void* __asan_memmove(void* d, const void* s, size_t n) {
  an5d_emu::detail::shared_access(s, n, false);
  an5d_emu::detail::shared_access(d, n, true);
  return std::memmove(d, s, n);
}
__attribute__((weak)) AN5D_EMU_UNCHECKED void* __asan_memset(void* d, int v, size_t n) {
  an5d_emu::detail::shared_access(d, n, true);
  return std::memset(d, v, n);
}
}

#endif  // AN5D_EMU_RACE_CHECK
