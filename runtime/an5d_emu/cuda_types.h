// an5d_emu/cuda_types.h - part of an5d_emu.h: standard headers, CUDA keywords,
// vector types, built-in variables and the runtime API's types.
#pragma once

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
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
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
// The race check's -fsanitize=kernel-address defines __SANITIZE_ADDRESS__ too,
// but links no sanitizer runtime.
#if !defined(AN5D_EMU_RACE_CHECK)
#if defined(__SANITIZE_ADDRESS__)
#define AN5D_EMU_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AN5D_EMU_UNDER_ASAN 1
#endif
#endif
#endif

// The threads of a block run as fibers on the launching thread
// (an5d_emu/fibers.h) unless the sanitizers must see real threads and stacks,
// or -DAN5D_EMU_OS_THREADS asks for one OS thread per CUDA thread.
#if !defined(AN5D_EMU_UNDER_TSAN) && !defined(AN5D_EMU_UNDER_ASAN) && !defined(AN5D_EMU_OS_THREADS)
#define AN5D_EMU_FIBERS 1
#else
#define AN5D_EMU_FIBERS 0
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
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
};
typedef cudaError_t cudaError;

enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
};

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
  bool complete = false;              // the work it captured has run
  unsigned long long stream_id = 0;   // where it was recorded (0: default)
  unsigned long long seq = 0;         // that stream's work up to it
  int device = 0;                     // current when it was created
};
typedef an5d_emu_event* cudaEvent_t;
struct an5d_emu_stream;  // an5d_emu/streams.h
typedef an5d_emu_stream* cudaStream_t;
#define cudaEventDefault 0x00u
#define cudaEventBlockingSync 0x01u
#define cudaEventDisableTiming 0x02u
#define cudaStreamDefault 0x00u
#define cudaStreamNonBlocking 0x01u

