// Dynamic shared memory: AN5D_DYNAMIC_SHARED (the emulation's spelling of
// `extern __shared__ T name[]`) with a byte count given at launch. Each block
// reverses its slice through shared memory.
#include <cstdio>

__global__ void reverse(const int* in, int* out) {
  AN5D_DYNAMIC_SHARED(int, s);
  const int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
  s[t] = in[base + t];
  __syncthreads();
  out[base + t] = s[n - 1 - t];
}

int main() {
  const int nt = 128, nb = 6, n = nt * nb;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i * 3;
  int *din, *dout;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  an5d_emu_launch_smem(reverse, dim3(nb), dim3(nt), nt * sizeof(int), din, dout);
  if (cudaGetLastError() != cudaSuccess) { std::printf("FAIL: launch\n"); return 1; }
  cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < nb; ++b)
    for (int t = 0; t < nt; ++t)
      if (h[b * nt + t] != (b * nt + nt - 1 - t) * 3) ++bad;
  if (bad) { std::printf("FAIL: %d wrong\n", bad); return 1; }
  std::printf("PASS: dynamic shared memory\n");
  return 0;
}
