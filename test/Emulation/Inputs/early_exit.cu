// Threads that return from the kernel before (or between) __syncthreads()
// calls must not deadlock the threads that keep using the barrier (sm_70+
// semantics: exited threads no longer count).
#include <cstdio>

#define NT 256

__global__ void partial(int* out, int active) {
  __shared__ int s[NT];
  const int t = threadIdx.x;
  if (t >= active) return;                    // never reaches any barrier
  s[t] = t + (int)blockIdx.x;
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < active; ++i) sum += s[i];
  if (t % 3 == 1) {                           // leaves between two barriers
    out[blockIdx.x * NT + t] = sum;
    return;
  }
  __syncthreads();
  s[t] = 2 * s[t];
  __syncthreads();                            // fewer threads take part now
  int sum2 = 0;
  for (int i = 0; i < active; ++i)
    if (i % 3 != 1) sum2 += s[i];
  __syncthreads();
  out[blockIdx.x * NT + t] = sum + sum2;
}

// Only thread 0 survives and keeps calling __syncthreads() alone.
__global__ void lonely(int* out) {
  if (threadIdx.x != 0) return;
  for (int i = 0; i < 100; ++i) __syncthreads();
  out[blockIdx.x] = 42;
}

int main() {
  const int blocks = 5, active = 200;
  int* d;
  cudaMalloc(&d, blocks * NT * sizeof(int));
  cudaMemset(d, 0, blocks * NT * sizeof(int));
  an5d_emu_launch(partial, dim3(blocks), dim3(NT), d, active);
  static int h[blocks * NT];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    int sum = 0, sum2 = 0;
    for (int i = 0; i < active; ++i) sum += i + b;
    for (int i = 0; i < active; ++i)
      if (i % 3 != 1) sum2 += 2 * (i + b);
    for (int t = 0; t < NT; ++t) {
      int want = t >= active ? 0 : (t % 3 == 1 ? sum : sum + sum2);
      if (h[b * NT + t] != want) ++bad;
    }
  }
  an5d_emu_launch(lonely, dim3(blocks), dim3(NT), d);
  cudaMemcpy(h, d, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b)
    if (h[b] != 42) ++bad;
  if (cudaGetLastError() != cudaSuccess) ++bad;
  if (bad) {
    std::printf("FAIL: %d wrong values\n", bad);
    return 1;
  }
  std::printf("PASS: early exits did not deadlock\n");
  return 0;
}
