// an5d_emu/streams.h - part of an5d_emu.h: streams, events and asynchronous
// copies.
//
// The default stream runs everything when it is issued (kernels, copies).
// Work on a created stream is queued and runs only when something needs it:
// an event synchronize or query, a stream or device synchronize, a wait of
// another stream on one of its events when that stream runs, cudaFree, or,
// for a blocking stream (cudaStreamCreate), the next default-stream work
// (the legacy default stream waits for blocking streams). This is one order
// CUDA allows, the latest for every queued copy, so a host that reads a
// copy's destination, or rewrites its source, before waiting for it sees the
// wrong data. Kernels run when launched, on any stream (AN5D_LAUNCH drops
// the stream): launch them only on streams with nothing queued, or on the
// default stream after a wait. With several devices (an5d_emu/devices.h) a
// stream belongs to the device current at its creation, the legacy default
// stream of the current device waits only for that device's blocking
// streams, and cudaDeviceSynchronize runs only the current device's streams.
#pragma once

#include <functional>

struct an5d_emu_stream {
  unsigned long long id = 0;
  int device = 0;
  bool blocking = true;
  unsigned long long issued = 0, done = 0;  // sequence numbers of its work
  std::deque<std::pair<unsigned long long, std::function<void()>>> work;
};

namespace an5d_emu {
namespace detail {

struct Streams {
  unsigned long long next_id = 1;
  std::map<unsigned long long, an5d_emu_stream*> live;  // id -> stream
  std::map<const void*, size_t> pinned;                 // cudaMallocHost blocks
};
inline Streams& streams() {
  static Streams* s = new Streams;
  return *s;
}

// Runs s's queued work up to sequence number `upto` (all of it: ~0ULL).
inline void run_stream(an5d_emu_stream* s, unsigned long long upto) {
  while (!s->work.empty() && s->work.front().first <= upto) {
    std::function<void()> f = std::move(s->work.front().second);
    const unsigned long long seq = s->work.front().first;
    s->work.pop_front();
    f();
    s->done = seq;
  }
}

// Queues f on s (the default stream: runs it now).
inline void enqueue(an5d_emu_stream* s, std::function<void()> f) {
  if (s == nullptr) {
    f();
    return;
  }
  s->work.emplace_back(++s->issued, std::move(f));
}

// Runs the queued work of the streams `which` selects.
template <class Which>
inline void drain(Which which) {
  // A copy: running work may create or destroy nothing, but stay safe.
  std::vector<an5d_emu_stream*> all;
  for (auto& kv : streams().live)
    if (which(kv.second)) all.push_back(kv.second);
  for (an5d_emu_stream* s : all) run_stream(s, ~0ULL);
}
inline void drain_all() {
  drain([](an5d_emu_stream*) { return true; });
}
inline void drain_device(int device) {
  drain([device](an5d_emu_stream* s) { return s->device == device; });
}

// Before work on the current device's legacy default stream: its blocking
// streams finish first.
inline void before_default_stream_work() {
  const int device = current_device;
  drain([device](an5d_emu_stream* s) { return s->blocking && s->device == device; });
}

// Lets an event's recorded work run (nothing if its stream is gone).
inline void complete(unsigned long long stream_id, unsigned long long seq) {
  auto it = streams().live.find(stream_id);
  if (it != streams().live.end()) run_stream(it->second, seq);
}

inline bool is_pinned(const void* p, size_t n) {
  const std::map<const void*, size_t>& m = streams().pinned;
  auto it = m.upper_bound(p);
  if (it == m.begin()) return false;
  --it;
  const char* base = static_cast<const char*>(it->first);
  const char* a = static_cast<const char*>(p);
  return a >= base && n <= it->second && static_cast<size_t>(a - base) <= it->second - n;
}

}  // namespace detail
}  // namespace an5d_emu

// --- Streams ------------------------------------------------------------------
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  if (!s) return an5d_emu::detail::record(cudaErrorInvalidValue);
  an5d_emu::detail::Streams& all = an5d_emu::detail::streams();
  *s = new an5d_emu_stream;
  (*s)->id = all.next_id++;
  (*s)->device = an5d_emu::detail::current_device;
  (*s)->blocking = (flags & cudaStreamNonBlocking) == 0;
  all.live[(*s)->id] = *s;
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreate(cudaStream_t* s) {
  return cudaStreamCreateWithFlags(s, cudaStreamDefault);
}
// CUDA lets the queued work finish after the call: here it runs first.
inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (!s) return an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
  an5d_emu::detail::run_stream(s, ~0ULL);
  an5d_emu::detail::streams().live.erase(s->id);
  delete s;
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  if (s == nullptr)
    an5d_emu::detail::before_default_stream_work();
  else
    an5d_emu::detail::run_stream(s, ~0ULL);
  return cudaSuccess;
}
inline cudaError_t cudaStreamQuery(cudaStream_t s) { return cudaStreamSynchronize(s); }

// --- Events -------------------------------------------------------------------
inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
  if (!e) return an5d_emu::detail::record(cudaErrorInvalidValue);
  *e = new an5d_emu_event;
  (*e)->device = an5d_emu::detail::current_device;
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { return cudaEventCreate(e); }
// The event completes when the stream's work before it has run. Event and
// stream must belong to one device (the default stream: the current one).
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = nullptr) {
  if (!e) return an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
  if ((s ? s->device : an5d_emu::detail::current_device) != e->device)
    return an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
  e->recorded = true;
  e->stream_id = s ? s->id : 0;
  e->complete = false;
  an5d_emu::detail::enqueue(s, [e] {
    e->when = std::chrono::steady_clock::now();
    e->complete = true;
  });
  e->seq = s ? s->issued : 0;
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  if (!e) return an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
  if (e->recorded) an5d_emu::detail::complete(e->stream_id, e->seq);
  return cudaSuccess;
}
// The queued work runs as if time had passed: a polling loop ends.
inline cudaError_t cudaEventQuery(cudaEvent_t e) { return cudaEventSynchronize(e); }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return an5d_emu::detail::record(cudaErrorInvalidValue);
  if (!start || !end || !start->recorded || !end->recorded)
    return an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
  if (!start->complete || !end->complete) return an5d_emu::detail::record(cudaErrorNotReady);
  *ms = static_cast<float>(an5d_emu::detail::elapsed_ms(start->when, end->when));
  return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
// s's later work waits for the work e captured when it was last recorded.
inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned = 0) {
  if (!e) return an5d_emu::detail::record(cudaErrorInvalidResourceHandle);
  if (!e->recorded) return cudaSuccess;
  const unsigned long long id = e->stream_id, seq = e->seq;
  an5d_emu::detail::enqueue(s, [id, seq] { an5d_emu::detail::complete(id, seq); });
  return cudaSuccess;
}

// --- Asynchronous copies ------------------------------------------------------
// Checked when issued, like cudaMemcpy. A copy between device memory and
// pageable host memory is synchronous (as in CUDA): the stream's earlier
// work runs, then the copy. A copy with pinned host memory (cudaMallocHost)
// or between device buffers is queued.
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                   cudaStream_t s = nullptr) {
  using namespace an5d_emu::detail;
  if (count == 0) return cudaSuccess;
  cudaError_t e = check_copy("cudaMemcpyAsync", dst, src, count, kind);
  if (e != cudaSuccess) return e;
  const bool pageable = (kind == cudaMemcpyHostToDevice && !is_pinned(src, count)) ||
                        (kind == cudaMemcpyDeviceToHost && !is_pinned(dst, count)) ||
                        kind == cudaMemcpyHostToHost || kind == cudaMemcpyDefault;
  if (s == nullptr || pageable) {
    if (s == nullptr)
      before_default_stream_work();
    else
      run_stream(s, ~0ULL);
    std::memcpy(dst, src, count);
    return cudaSuccess;
  }
  enqueue(s, [dst, src, count] { std::memcpy(dst, src, count); });
  return cudaSuccess;
}

// Between the memory of two devices (or within one): checked as issued
// (each side inside one allocation of its device), queued like a copy
// between device buffers. Peer access need not be enabled (CUDA then
// stages the copy).
inline cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                       size_t count, cudaStream_t s = nullptr) {
  using namespace an5d_emu::detail;
  if (!valid_device(dst_device) || !valid_device(src_device)) return record(cudaErrorInvalidDevice);
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return record(cudaErrorInvalidValue);
  for (int side = 0; side < 2; ++side) {
    const void* p = side ? src : dst;
    const int want = side ? src_device : dst_device;
    if (device_of(p, count) != want) {
      std::fprintf(stderr,
                   "an5d_emu: cudaMemcpyPeerAsync: %s range [%p, +%zu) is not inside one "
                   "cudaMalloc allocation of device %d\n",
                   side ? "source" : "destination", p, count, want);
      return record(cudaErrorInvalidValue);
    }
  }
  if (s == nullptr) {
    before_default_stream_work();
    std::memcpy(dst, src, count);
    return cudaSuccess;
  }
  enqueue(s, [dst, src, count] { std::memcpy(dst, src, count); });
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device,
                                  size_t count) {
  return cudaMemcpyPeerAsync(dst, dst_device, src, src_device, count, nullptr);
}

// A pitched copy of `height` rows of `width` bytes. The emulation takes
// device-to-device copies only (what the runtime makes): each row range
// must lie inside one cudaMalloc allocation.
inline cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                     size_t width, size_t height, cudaMemcpyKind kind,
                                     cudaStream_t s = nullptr) {
  using namespace an5d_emu::detail;
  if (width == 0 || height == 0) return cudaSuccess;
  if (kind != cudaMemcpyDeviceToDevice || width > dpitch || width > spitch)
    return record(cudaErrorInvalidValue);
  const size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
  if (!in_device_memory(dst, dspan))
    return bad_device_range("cudaMemcpy2DAsync", "destination", dst, dspan);
  if (!in_device_memory(src, sspan))
    return bad_device_range("cudaMemcpy2DAsync", "source", src, sspan);
  auto copy = [dst, dpitch, src, spitch, width, height] {
    for (size_t r = 0; r < height; ++r)
      std::memcpy(static_cast<char*>(dst) + r * dpitch,
                  static_cast<const char*>(src) + r * spitch, width);
  };
  if (s == nullptr) {
    before_default_stream_work();
    copy();
    return cudaSuccess;
  }
  enqueue(s, copy);
  return cudaSuccess;
}

inline cudaError_t cudaMemsetAsync(void* dst, int value, size_t count, cudaStream_t s = nullptr) {
  using namespace an5d_emu::detail;
  if (count == 0) return cudaSuccess;
  if (!in_device_memory(dst, count))
    return bad_device_range("cudaMemsetAsync", "destination", dst, count);
  if (s == nullptr) before_default_stream_work();
  enqueue(s, [dst, value, count] { std::memset(dst, value, count); });
  return cudaSuccess;
}

// --- Pinned host memory -------------------------------------------------------
template <class T>
inline cudaError_t cudaMallocHost(T** ptr, size_t size) {
  if (!ptr) return an5d_emu::detail::record(cudaErrorInvalidValue);
  void* p = std::malloc(size ? size : 1);
  *ptr = static_cast<T*>(p);
  if (!p) return an5d_emu::detail::record(cudaErrorMemoryAllocation);
  an5d_emu::detail::streams().pinned[p] = size ? size : 1;
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned) {
  return cudaMallocHost(ptr, size);
}
// Registered host memory counts as pinned: copies with it are queued.
#ifndef cudaHostRegisterDefault
#define cudaHostRegisterDefault 0u
#endif
#ifndef cudaHostRegisterPortable
#define cudaHostRegisterPortable 1u
#endif
inline cudaError_t cudaHostRegister(void* p, size_t size, unsigned) {
  if (!p || size == 0) return an5d_emu::detail::record(cudaErrorInvalidValue);
  auto& m = an5d_emu::detail::streams().pinned;
  if (an5d_emu::detail::is_pinned(p, 1) || m.count(p))
    return an5d_emu::detail::record(cudaErrorHostMemoryAlreadyRegistered);
  m[p] = size;
  return cudaSuccess;
}
// Waits for all queued work (a copy may still use the memory).
inline cudaError_t cudaHostUnregister(void* p) {
  an5d_emu::detail::drain_all();
  if (!p || an5d_emu::detail::streams().pinned.erase(p) == 0)
    return an5d_emu::detail::record(cudaErrorHostMemoryNotRegistered);
  return cudaSuccess;
}

// Waits for all queued work, as CUDA's does.
inline cudaError_t cudaFreeHost(void* p) {
  if (!p) return cudaSuccess;
  an5d_emu::detail::drain_all();
  if (an5d_emu::detail::streams().pinned.erase(p) == 0) {
    std::fprintf(stderr, "an5d_emu: cudaFreeHost(%p): not a cudaMallocHost pointer\n", p);
    return an5d_emu::detail::record(cudaErrorInvalidValue);
  }
  std::free(p);
  return cudaSuccess;
}
