// an5d_emu/block_memory.h - part of an5d_emu.h: the shared memory of the running
// block as its threads see it: asynchronous copies that land only when a wait
// covers them, and the hand-over to the race check at barriers.
#pragma once

namespace an5d_emu {
namespace detail {

class BlockMemory {
 public:
  explicit BlockMemory(const LaunchInfo& info)
      : info_(info),
        n_(info.block.x * info.block.y * info.block.z),
        threads_(new ThreadMemory[n_]),
        strict_exit_(env_long("AN5D_EMU_STRICT_COPIES", 0) != 0)
#ifdef AN5D_EMU_RACE_CHECK
        ,
        check_(info_)
#endif
  {
    for (unsigned t = 0; t < n_; ++t) {
      threads_[t].block = this;
      threads_[t].tid = t;
    }
  }

  ThreadMemory& thread(unsigned tid) { return threads_[tid]; }
#ifdef AN5D_EMU_RACE_CHECK
  RaceCheck& check() { return check_; }
#endif

  // __pipeline_memcpy_async: the destination holds poison (0xFF bytes, a NaN)
  // from now until a wait covers the copy; the source is read when it lands.
  AN5D_EMU_UNCHECKED void copy_async(ThreadMemory& m, void* dst, const void* src, size_t bytes,
                                     size_t zeros) {
    if (zeros > bytes) fatal("__pipeline_memcpy_async: more zero-filled bytes than bytes");
    if (poison_enabled()) std::memset(dst, 0xFF, bytes);
    m.copies.push_back(AsyncCopy{static_cast<unsigned char*>(dst),
                                 static_cast<const unsigned char*>(src), bytes, zeros, 0});
#ifdef AN5D_EMU_RACE_CHECK
    check_.mark_pending(dst, bytes, m.tid + 1);
#endif
  }

  // __pipeline_commit: the copies issued since the last commit form a group
  // (possibly empty).
  void commit(ThreadMemory& m) {
    ++m.committed;
    for (auto it = m.copies.rbegin(); it != m.copies.rend() && it->group == 0; ++it)
      it->group = m.committed;
  }

  // __pipeline_wait_prior(n): every committed group but the n most recent
  // lands; copies not committed yet do not.
  void wait_prior(ThreadMemory& m, size_t n) {
    while (!m.copies.empty()) {
      const AsyncCopy& c = m.copies.front();
      if (c.group == 0 || c.group + n > m.committed) break;
      land(m, c);
      m.copies.pop_front();
    }
  }

  // The thread returned from the kernel. The copies it left pending never
  // land: their destinations keep the poison and count as the thread's writes
  // until the block ends, so a thread that touches them races with the copy.
  // With AN5D_EMU_STRICT_COPIES=1 returning with copies pending is an error.
  void thread_exit(ThreadMemory& m) {
    if (!strict_exit_ || m.copies.empty()) return;
    std::fprintf(stderr,
                 "an5d_emu: error: kernel %s, block (%u,%u,%u), thread %s returned before a wait "
                 "covered its asynchronous copies (%zu; the first into byte %s)\n",
                 info_.kernel, blockIdx.x, blockIdx.y, blockIdx.z,
                 info_.thread_name(m.tid).c_str(), m.copies.size(),
                 info_.where(info_.space.offset(m.copies.front().dst)).c_str());
    fail_exit();
  }

  // Called by one thread when the block's threads pass a barrier, while the
  // others wait in it or have returned: the race check of the epoch that ends.
  void end_epoch() {
#ifdef AN5D_EMU_RACE_CHECK
    check_.end_epoch(threads_.get(), n_);
#endif
  }

  // Called by the last thread of the block to return: the last epoch's check,
  // then the copies still pending are dropped.
  void end_block() {
    end_epoch();
    for (unsigned t = 0; t < n_; ++t) {
      ThreadMemory& m = threads_[t];
#ifdef AN5D_EMU_RACE_CHECK
      for (const AsyncCopy& c : m.copies) check_.mark_pending(c.dst, c.bytes, 0);
#endif
      m.copies.clear();
      m.committed = 0;
    }
  }

 private:
  AN5D_EMU_UNCHECKED void land(ThreadMemory& m, const AsyncCopy& c) {
    std::memcpy(c.dst, c.src, c.bytes - c.zeros);
    std::memset(c.dst + (c.bytes - c.zeros), 0, c.zeros);
#ifdef AN5D_EMU_RACE_CHECK
    check_.landed(m, c);
#else
    (void)m;
#endif
  }

  const LaunchInfo info_;
  const unsigned n_;
  std::unique_ptr<ThreadMemory[]> threads_;
  const bool strict_exit_;
#ifdef AN5D_EMU_RACE_CHECK
  RaceCheck check_;
#endif
};

}  // namespace detail
}  // namespace an5d_emu
