// 1D 3-point Jacobi stencil with temporal blocking in shared memory:
// each launch advances STEPS time steps; a block of BS threads loads BS cells
// (its tile plus a halo of STEPS cells on each side) and double-buffers them
// in shared memory with one __syncthreads() per step. Compared against a CPU
// loop. -DAN5D_TEST_OMIT_SYNC drops the barrier inside the time loop (a
// deliberate data race for ThreadSanitizer to find).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef AN5D_EMULATION
#define AN5D_LAUNCH(kernel, grid, block, ...) an5d_emu_launch(kernel, grid, block, __VA_ARGS__)
#else
#define AN5D_LAUNCH(kernel, grid, block, ...) kernel<<<grid, block>>>(__VA_ARGS__)
#endif

#define BS 256
#define STEPS 4
#define TILE (BS - 2 * STEPS)

__global__ void __launch_bounds__(BS) jacobi1d(const float* __restrict__ in,
                                               float* __restrict__ out, int n) {
  __shared__ float buf[2][BS];
  const int t = threadIdx.x;
  const int gi = (int)(blockIdx.x * TILE) + t - STEPS;
  buf[0][t] = (gi >= 0 && gi < n) ? in[gi] : 0.0f;
  __syncthreads();
  for (int s = 0; s < STEPS; ++s) {
    const int cur = s & 1, nxt = cur ^ 1;
    float r = buf[cur][t];
    if (t > 0 && t < BS - 1 && gi > 0 && gi < n - 1)
      r = 0.25f * buf[cur][t - 1] + 0.5f * buf[cur][t] + 0.25f * buf[cur][t + 1];
    buf[nxt][t] = r;
#ifndef AN5D_TEST_OMIT_SYNC
    __syncthreads();
#endif
  }
  if (t >= STEPS && t < BS - STEPS && gi < n) out[gi] = buf[STEPS & 1][t];
}

int main() {
  const int n = 10000, launches = 4;
  std::vector<float> h(n), ref(n), tmp(n);
  for (int i = 0; i < n; ++i) h[i] = ref[i] = (float)((i * 7919) % 1000) / 100.0f;

  for (int s = 0; s < launches * STEPS; ++s) {
    tmp = ref;
    for (int i = 1; i < n - 1; ++i)
      tmp[i] = 0.25f * ref[i - 1] + 0.5f * ref[i] + 0.25f * ref[i + 1];
    ref.swap(tmp);
  }

  float *d_a, *d_b;
  if (cudaMalloc(&d_a, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc((void**)&d_b, n * sizeof(float)) != cudaSuccess) {
    std::printf("FAIL: cudaMalloc\n");
    return 1;
  }
  cudaMemcpy(d_a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 grid((n + TILE - 1) / TILE), block(BS);
  for (int l = 0; l < launches; ++l) {
    AN5D_LAUNCH(jacobi1d, grid, block, d_a, d_b, n);
    float* t = d_a; d_a = d_b; d_b = t;
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::printf("FAIL: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaDeviceSynchronize();
  cudaMemcpy(h.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (!(std::fabs(h[i] - ref[i]) <= 1e-4f * (1.0f + std::fabs(ref[i])))) {
      if (bad < 5) std::printf("mismatch at %d: got %g expected %g\n", i, h[i], ref[i]);
      ++bad;
    }
  }
  if (bad) {
    std::printf("FAIL: %d mismatches\n", bad);
    return 1;
  }
  std::printf("PASS: %d cells, %d steps, %u blocks of %u threads\n", n, launches * STEPS, grid.x,
              block.x);
  return 0;
}
