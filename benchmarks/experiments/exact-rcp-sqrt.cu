// Every float through the refined reciprocal, square root and reciprocal
// square root that an5dc's generated code uses for 1.0f / x, sqrtf(x) and
// 1.0f / sqrtf(x) (lib/CodeGen/DivisionHelper.cpp, the same instruction
// sequences), compared bit for bit with the IEEE operations (__frcp_rn,
// __fsqrt_rn, both in turn). Prints the mismatches per sign and exponent
// field, then the mismatches inside the ranges the helpers' range tests
// accept, which must be zero: reciprocal 2^-126 <= |x| < 2^126; square
// root and its reciprocal 2^-102 <= x <= FLT_MAX.
// Build and run on a GPU: nvcc -O3 -arch=sm_90 exact-rcp-sqrt.cu && ./a.out
#include <cstdint>
#include <cstdio>

__device__ __forceinline__ float rcp_approx(float x) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ float rsqrt_approx(float x) {
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ float refined_rcp(float x) {
  float y = rcp_approx(x);
  y = __fmaf_rn(y, __fmaf_rn(-x, y, 1.0f), y);
  return __fmaf_rn(__fmaf_rn(-x, y, 1.0f), y, y);
}
__device__ __forceinline__ float refined_sqrt(float x) {
  const float y = rsqrt_approx(x);
  const float s = __fmul_rn(x, y);
  return __fmaf_rn(__fmaf_rn(-s, s, x), __fmul_rn(0.5f, y), s);
}
__device__ __forceinline__ float refined_rsqrt(float x) {
  return refined_rcp(refined_sqrt(x));
}

// bad[0 .. 511]: reciprocal mismatches per sign and exponent field (sign *
// 256 + field); bad[512 .. 1023]: square root; bad[1024], bad[1025]: inside
// the accepted ranges; bad[1026]: the reciprocal square root inside its.
__global__ void check(uint64_t base, unsigned long long *bad) {
  const uint64_t index = base + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t bits = (uint32_t)index;
  const float x = __uint_as_float(bits);
  const unsigned bucket = bits >> 23; // sign and exponent field
  const bool rcp_ok =
      __float_as_uint(refined_rcp(x)) == __float_as_uint(__frcp_rn(x)) ||
      (x != x);
  const bool sqrt_ok =
      __float_as_uint(refined_sqrt(x)) == __float_as_uint(__fsqrt_rn(x)) ||
      (x != x);
  const float a = fabsf(x);
  if (!rcp_ok) {
    atomicAdd(&bad[bucket], 1ull);
    if (a >= 0x1p-126f && a < 0x1p126f)
      atomicAdd(&bad[1024], 1ull);
  }
  const bool in_root_range = x >= 0x1p-102f && x <= 0x1.fffffep127f;
  if (!sqrt_ok) {
    atomicAdd(&bad[512 + bucket], 1ull);
    if (in_root_range)
      atomicAdd(&bad[1025], 1ull);
  }
  if (in_root_range && __float_as_uint(refined_rsqrt(x)) !=
                           __float_as_uint(__frcp_rn(__fsqrt_rn(x))))
    atomicAdd(&bad[1026], 1ull);
}

int main() {
  unsigned long long *bad = nullptr;
  if (cudaMallocManaged(&bad, 1027 * sizeof *bad) != cudaSuccess)
    return 1;
  for (int i = 0; i < 1027; ++i)
    bad[i] = 0;
  const uint64_t chunk = 1ull << 28;
  for (uint64_t base = 0; base < (1ull << 32); base += chunk)
    check<<<(unsigned)(chunk / 256), 256>>>(base, bad);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  printf("sign,exponent_field,rcp_mismatches,sqrt_mismatches\n");
  for (int b = 0; b < 512; ++b)
    if (bad[b] || bad[512 + b])
      printf("%d,%d,%llu,%llu\n", b >> 8, b & 255, bad[b], bad[512 + b]);
  printf("inside the accepted ranges: reciprocal %llu, square root %llu, "
         "reciprocal square root %llu mismatches (NaN inputs skipped)\n",
         bad[1024], bad[1025], bad[1026]);
  return bad[1024] || bad[1025] || bad[1026] ? 1 : 0;
}
