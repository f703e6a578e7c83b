// Shared memory is poisoned (0xFF bytes: NaN for float) before every block
// when compiled with clang: reading a shared element that the block did not
// write -- here a halo cell nobody loads, and data left by the previous
// block -- gives NaN instead of a plausible 0 or stale value.
#include <cmath>
#include <cstdio>

#define NT 64

__global__ void halo_bug(const float* in, float* out) {
  __shared__ float s[NT + 2];
  const int t = threadIdx.x;
  s[t + 1] = in[blockIdx.x * NT + t];  // bug: halo cells s[0], s[NT+1] never loaded
  __syncthreads();
  out[blockIdx.x * NT + t] = s[t] + s[t + 1] + s[t + 2];
}

__global__ void stale(float* out) {
  __shared__ float s[NT];
  const int t = threadIdx.x;
  if (blockIdx.x == 0) s[t] = 1.0f;  // only block 0 writes
  __syncthreads();
  out[blockIdx.x * NT + t] = s[t];
}

int main() {
  const int nb = 3, n = nb * NT;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = 1.0f;
  float *din, *dout;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);

  an5d_emu_launch(halo_bug, dim3(nb), dim3(NT), (const float*)din, dout);
  cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
  int nan_edges = 0, ok_inner = 0;
  for (int b = 0; b < nb; ++b) {
    nan_edges += std::isnan(h[b * NT]) + std::isnan(h[b * NT + NT - 1]);
    for (int t = 1; t < NT - 1; ++t) ok_inner += h[b * NT + t] == 3.0f;
  }
  std::printf("halo: %d of %d edge results are NaN, %d of %d inner results are 3\n", nan_edges,
              2 * nb, ok_inner, nb * (NT - 2));

  an5d_emu_launch(stale, dim3(nb), dim3(NT), dout);
  cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
  int ones = 0, nans = 0;
  for (int t = 0; t < NT; ++t) ones += h[t] == 1.0f;
  for (int i = NT; i < n; ++i) nans += std::isnan(h[i]);
  std::printf("stale: block 0 read %d ones, later blocks read %d NaNs of %d\n", ones, nans,
              n - NT);
  return 0;
}
