// When the emulation's asynchronous copies (<cuda_pipeline.h>) land: one block
// of one thread copies single floats into shared memory and prints what the
// destination holds after each step. Before a wait covers a copy, the
// destination holds 0xFF bytes (a NaN). Built with --no-race-check: the race
// check would stop the program at the first early read, which is the point of
// this test.
#include <cmath>
#include <cstdio>

#ifndef AN5D_EMULATION
#include <cuda_pipeline.h>
#define AN5D_DYNAMIC_SHARED(T, name) extern __shared__ T name[]
#endif

__device__ void show(const char* when, const float* s, int n) {
  std::printf("%s:", when);
  for (int i = 0; i < n; ++i) {
    if (std::isnan(s[i]))
      std::printf(" nan");
    else
      std::printf(" %g", s[i]);
  }
  std::printf("\n");
}

__global__ void copies(const float* src, int leave_pending) {
  AN5D_DYNAMIC_SHARED(float, s);
  for (int i = 0; i < 4; ++i) s[i] = 0.0f;
  __pipeline_memcpy_async(&s[0], &src[0], sizeof(float));
  __pipeline_commit();
  __pipeline_memcpy_async(&s[1], &src[1], sizeof(float));
  __pipeline_commit();
  __pipeline_memcpy_async(&s[2], &src[2], sizeof(float), sizeof(float));  // zero-filled
  show("issued", s, 4);
  __pipeline_wait_prior(1);  // the first group only
  show("wait_prior(1)", s, 4);
  __pipeline_wait_prior(0);  // the second; the third copy is not committed
  show("wait_prior(0), third uncommitted", s, 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  show("committed, wait_prior(0)", s, 4);
  if (leave_pending) {
    __pipeline_memcpy_async(&s[3], &src[3], sizeof(float));
    __pipeline_commit();
  }
}

int main(int argc, char** argv) {
  const int leave_pending = argc > 1;
  float host[4] = {1, 2, 3, 4};
  float* src;
  cudaMalloc(&src, sizeof host);
  cudaMemcpy(src, host, sizeof host, cudaMemcpyHostToDevice);
  an5d_emu_launch_named("copies", copies, dim3(1), dim3(1), 4 * sizeof(float), src, leave_pending);
  std::printf("%s\n", cudaGetLastError() == cudaSuccess ? "DONE" : "FAIL");
  return 0;
}
