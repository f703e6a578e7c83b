// an5d_emu/device.h - part of an5d_emu.h: device built-ins (fences, clock, __ldg,
// the asynchronous copies of <cuda_pipeline.h>, math, min/max, atomics).
#pragma once

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

// Asynchronous copies of <cuda_pipeline.h> (an5d_emu/block_memory.h): a copy
// lands when a __pipeline_wait_prior covers its committed group; until then its
// destination holds 0xFF bytes (a NaN). Outside a kernel they copy at once.
// Not inlined: generated kernels call them at many unrolled sites, and the
// deque behind them would make every site (and the compile) bigger.
__attribute__((noinline)) inline void __pipeline_memcpy_async(void* dst, const void* src, size_t size, size_t zfill = 0) {
  using namespace an5d_emu::detail;
  if (tl_memory) {
    tl_memory->block->copy_async(*tl_memory, dst, src, size, zfill);
    return;
  }
  std::memcpy(dst, src, size - zfill);
  std::memset(static_cast<char*>(dst) + (size - zfill), 0, zfill);
}
__attribute__((noinline)) inline void __pipeline_commit() {
  using namespace an5d_emu::detail;
  if (tl_memory) tl_memory->block->commit(*tl_memory);
}
__attribute__((noinline)) inline void __pipeline_wait_prior(size_t n) {
  using namespace an5d_emu::detail;
  if (tl_memory) tl_memory->block->wait_prior(*tl_memory, n);
}

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

