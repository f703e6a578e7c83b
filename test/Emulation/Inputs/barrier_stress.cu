// One block of 1024 threads passing NBARRIERS __syncthreads(); every phase
// each thread reads its neighbour's value written before the barrier, so a
// barrier that lets a thread through early gives a wrong sum. Prints the
// wall time of the launch.
#include <chrono>
#include <cstdio>

#ifndef NBARRIERS
#define NBARRIERS 1000
#endif
#define NT 1024

__global__ void stress(long long* out) {
  __shared__ int v[2][NT];
  const int t = threadIdx.x;
  long long acc = 0;
  v[0][t] = t;
  __syncthreads();
  for (int i = 0; i < NBARRIERS; ++i) {
    const int cur = i & 1;
    const int x = v[cur][(t + 1) % NT];
    acc += x;
    v[cur ^ 1][t] = x;  // values rotate by one thread per phase
    __syncthreads();
  }
  out[t] = acc;
}

int main() {
  long long* d;
  cudaMalloc(&d, NT * sizeof(long long));
  auto t0 = std::chrono::steady_clock::now();
  an5d_emu_launch(stress, dim3(1), dim3(NT), d);
  auto t1 = std::chrono::steady_clock::now();
  if (cudaGetLastError() != cudaSuccess) { std::printf("FAIL: launch\n"); return 1; }
  long long h[NT];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < NT; ++t) {
    long long want = 0;
    for (int i = 0; i < NBARRIERS; ++i) want += (t + 1 + i) % NT;
    if (h[t] != want) ++bad;
  }
  std::printf("%d threads x %d barriers: %.3f s\n", NT, NBARRIERS + 1,
              std::chrono::duration<double>(t1 - t0).count());
  if (bad) { std::printf("FAIL: %d threads wrong\n", bad); return 1; }
  std::printf("PASS\n");
  return 0;
}
