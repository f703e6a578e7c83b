// an5d_emu/runtime_api.h - part of an5d_emu.h: device memory bookkeeping and the
// CUDA runtime API on host memory.
#pragma once

namespace an5d_emu {
namespace detail {

// --- Device memory bookkeeping ----------------------------------------------
struct Block {
  size_t size;
  int device;  // the device current at cudaMalloc
};
struct Allocations {
  std::mutex m;
  std::map<uintptr_t, Block> blocks;  // base -> block
  size_t used[kMaxDevices] = {};       // bytes live per device
};
inline Allocations& allocations() {
  static Allocations* a = new Allocations;
  return *a;
}

// The device of the live cudaMalloc allocation that holds [p, p+n); -1 if
// none holds it whole.
inline int device_of(const void* p, size_t n) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  Allocations& al = allocations();
  std::lock_guard<std::mutex> lk(al.m);
  auto it = al.blocks.upper_bound(a);
  if (it == al.blocks.begin()) return -1;
  --it;
  const size_t size = it->second.size;
  return a >= it->first && n <= size && a - it->first <= size - n ? it->second.device : -1;
}
inline bool in_device_memory(const void* p, size_t n) { return device_of(p, n) >= 0; }

// Each emulated device's memory: AN5D_EMU_DEVICE_MEMORY=<bytes>[K|M|G] caps
// what cudaMalloc hands out on it (a larger request fails as on a full GPU)
// and is the total cudaMemGetInfo reports; 0 or unset: the host's memory.
inline size_t device_memory_cap() {
  static const size_t cap = [] {
    const char* s = std::getenv("AN5D_EMU_DEVICE_MEMORY");
    if (!s || !*s) return size_t(0);
    char* end = nullptr;
    unsigned long long v = std::strtoull(s, &end, 10);
    int shift = 0;
    if (end && (*end == 'K' || *end == 'k')) shift = 10;
    if (end && (*end == 'M' || *end == 'm')) shift = 20;
    if (end && (*end == 'G' || *end == 'g')) shift = 30;
    return static_cast<size_t>(v << shift);
  }();
  return cap;
}

inline cudaError_t device_malloc(void** ptr, size_t size) {
  if (!ptr) return record(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (size == 0) return cudaSuccess;
  const size_t cap = device_memory_cap();
  const int device = current_device;
  Allocations& al = allocations();
  {
    std::lock_guard<std::mutex> lk(al.m);
    if (cap != 0 && size > cap - al.used[device]) return record(cudaErrorMemoryAllocation);
  }
  void* p = nullptr;
  if (posix_memalign(&p, 256, size) != 0 || !p) return record(cudaErrorMemoryAllocation);
  std::memset(p, poison_enabled() ? 0xFF : 0, size);
  {
    std::lock_guard<std::mutex> lk(al.m);
    al.blocks[reinterpret_cast<uintptr_t>(p)] = Block{size, device};
    al.used[device] += size;
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
    case cudaErrorPeerAccessAlreadyEnabled: return "cudaErrorPeerAccessAlreadyEnabled";
    case cudaErrorPeerAccessNotEnabled: return "cudaErrorPeerAccessNotEnabled";
    case cudaErrorHostMemoryAlreadyRegistered: return "cudaErrorHostMemoryAlreadyRegistered";
    case cudaErrorHostMemoryNotRegistered: return "cudaErrorHostMemoryNotRegistered";
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
    case cudaErrorPeerAccessAlreadyEnabled: return "peer access is already enabled";
    case cudaErrorPeerAccessNotEnabled: return "peer access has not been enabled";
    case cudaErrorHostMemoryAlreadyRegistered: return "part or all of the requested memory range is already mapped";
    case cudaErrorHostMemoryNotRegistered: return "pointer does not correspond to a registered memory region";
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

// Placement hints for managed memory: nothing to place in the emulation.
inline cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, int) {
  return cudaSuccess;
}
inline cudaError_t cudaMemPrefetchAsync(const void*, size_t, int, cudaStream_t = 0) {
  return cudaSuccess;
}

// Waits for all queued work, as CUDA's does.
inline cudaError_t cudaFree(void* p) {
  if (!p) return cudaSuccess;
  an5d_emu::detail::drain_all();
  an5d_emu::detail::Allocations& al = an5d_emu::detail::allocations();
  {
    std::lock_guard<std::mutex> lk(al.m);
    auto it = al.blocks.find(reinterpret_cast<uintptr_t>(p));
    if (it == al.blocks.end()) {
      std::fprintf(stderr, "an5d_emu: cudaFree(%p): not a cudaMalloc pointer (or freed twice)\n",
                   p);
      return an5d_emu::detail::record(cudaErrorInvalidValue);
    }
    al.used[it->second.device] -= it->second.size;
    al.blocks.erase(it);
  }
  std::free(p);
  return cudaSuccess;
}

namespace an5d_emu {
namespace detail {
// The checks of a copy of `count` bytes: direction, and the device side
// inside one live allocation.
inline cudaError_t check_copy(const char* fn, void* dst, const void* src, size_t count,
                              cudaMemcpyKind kind) {
  if (static_cast<int>(kind) < 0 || static_cast<int>(kind) > 4)
    return record(cudaErrorInvalidMemcpyDirection);
  if (!dst || !src) return record(cudaErrorInvalidValue);
  const bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (dst_dev && !in_device_memory(dst, count)) return bad_device_range(fn, "destination", dst, count);
  if (src_dev && !in_device_memory(src, count)) return bad_device_range(fn, "source", src, count);
  return cudaSuccess;
}
}  // namespace detail
}  // namespace an5d_emu

// Default-stream work: blocking streams' queued work runs first.
inline cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  using namespace an5d_emu::detail;
  if (count == 0) return cudaSuccess;
  cudaError_t e = check_copy("cudaMemcpy", dst, src, count, kind);
  if (e != cudaSuccess) return e;
  before_default_stream_work();
  std::memcpy(dst, src, count);
  return cudaSuccess;
}

// A pitched copy of `height` rows of `width` bytes, each row checked as
// cudaMemcpy checks its range.
inline cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind kind) {
  using namespace an5d_emu::detail;
  if (width == 0 || height == 0) return cudaSuccess;
  if (width > dpitch || width > spitch) return record(cudaErrorInvalidValue);
  for (size_t r = 0; r < height; ++r) {
    cudaError_t e = check_copy("cudaMemcpy2D", static_cast<char*>(dst) + r * dpitch,
                               static_cast<const char*>(src) + r * spitch, width, kind);
    if (e != cudaSuccess) return e;
  }
  before_default_stream_work();
  for (size_t r = 0; r < height; ++r)
    std::memcpy(static_cast<char*>(dst) + r * dpitch,
                static_cast<const char*>(src) + r * spitch, width);
  return cudaSuccess;
}

inline cudaError_t cudaMemset(void* dst, int value, size_t count) {
  using namespace an5d_emu::detail;
  if (count == 0) return cudaSuccess;
  if (!in_device_memory(dst, count)) return bad_device_range("cudaMemset", "destination", dst, count);
  before_default_stream_work();
  std::memset(dst, value, count);
  return cudaSuccess;
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

// Waits for the current device's streams (and what they wait for).
inline cudaError_t cudaDeviceSynchronize() {
  an5d_emu::detail::drain_device(an5d_emu::detail::current_device);
  return cudaSuccess;
}
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }

inline int an5d_emu_sm_count() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? static_cast<int>(n) : 1;
}

inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  if (!p) return an5d_emu::detail::record(cudaErrorInvalidValue);
  if (!an5d_emu::detail::valid_device(d)) return an5d_emu::detail::record(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "%s", "an5d CPU emulation");
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  p->totalGlobalMem = pages > 0 && page > 0 ? static_cast<size_t>(pages) * page : (size_t(1) << 32);
  if (an5d_emu::detail::device_memory_cap() != 0)
    p->totalGlobalMem = an5d_emu::detail::device_memory_cap();
  p->sharedMemPerBlock = 49152;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = static_cast<int>(an5d_emu::detail::kMaxGridYZ);
  p->maxGridSize[2] = static_cast<int>(an5d_emu::detail::kMaxGridYZ);
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

// With AN5D_EMU_DEVICE_MEMORY: that total, less what cudaMalloc holds on the
// current device.
inline cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  using namespace an5d_emu::detail;
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  long avail = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  size_t total = p.totalGlobalMem;
  size_t free = avail > 0 && page > 0 ? static_cast<size_t>(avail) * page : p.totalGlobalMem;
  if (device_memory_cap() != 0) {
    std::lock_guard<std::mutex> lk(allocations().m);
    total = device_memory_cap();
    free = total - allocations().used[current_device];
  }
  if (free_bytes) *free_bytes = free;
  if (total_bytes) *total_bytes = total;
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

namespace an5d_emu {
namespace detail {
// A kernel argument that points into another device's memory needs peer
// access from the current device; on a GPU the access would fault.
inline void check_kernel_pointer(const char* kernel, const void* p) {
  const int d = device_of(p, 1);
  if (d < 0 || peer_enabled(current_device, d)) return;
  std::fprintf(stderr,
               "an5d_emu: kernel %s launched on device %d is given a pointer into device %d's "
               "memory without peer access (cudaDeviceEnablePeerAccess)\n",
               kernel ? kernel : "(unnamed)", current_device, d);
  fatal("illegal address");
}
}  // namespace detail
}  // namespace an5d_emu

// A generated kernel's own consistency check failed: the emulated run ends.
[[noreturn]] inline void an5d_emu_fail(const char* what) { an5d_emu::detail::fatal(what); }

