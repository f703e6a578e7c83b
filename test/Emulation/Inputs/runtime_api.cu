// Runtime API and device built-ins of the emulation: device properties,
// poisoned cudaMalloc memory, range-checked cudaMemcpy, double cudaFree,
// __constant__ + cudaMemcpyToSymbol, events, __syncthreads_count/and/or and
// the device math functions.
#include <cmath>
#include <cstdio>
#include <cstring>

__constant__ float coef[4];

__global__ void math(const float* __restrict__ in, float* out, int* iout) {
  const int t = threadIdx.x;
  const float x = __ldg(&in[t]);
  float r = sqrtf(x) + (float)sqrt((double)x) + fabsf(-x) + expf(0.0f) + powf(x, 2.0f) +
            fmaxf(x, 1.0f) + fminf(x, 1.0f) + __fdividef(x, 2.0f) + rsqrtf(x);
  out[t] = r * coef[t % 4];
  iout[t] = min(t, 3) + max(t, 5) + (int)min(2.0f, (float)t) + (int)max(1u, (unsigned)t);
}

__global__ void votes(int* res) {
  const int t = threadIdx.x;
  const int c = __syncthreads_count(t % 2 == 0);
  const int a = __syncthreads_and(t < 1000);
  const int o = __syncthreads_or(t == 5);
  const int z = __syncthreads_and(t != 7);
  if (t == 0) {
    res[0] = c;
    res[1] = a;
    res[2] = o;
    res[3] = z;
  }
}

int main() {
  int n = -1, dev = -1;
  cudaGetDeviceCount(&n);
  cudaSetDevice(0);
  cudaGetDevice(&dev);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  std::printf("devices %d current %d name '%s' sm_%d%d threads %d smem %zu regs %d warp %d sms>0 %d\n",
              n, dev, p.name, p.major, p.minor, p.maxThreadsPerBlock, p.sharedMemPerBlock,
              p.regsPerBlock, p.warpSize, p.multiProcessorCount > 0);
  std::printf("cudaSetDevice(1): %s\n", cudaGetErrorName(cudaSetDevice(1)));
  cudaGetLastError();

  // Fresh device memory is poisoned (0xFF bytes).
  const int N = 64;
  float* d;
  cudaMalloc(&d, N * sizeof(float));
  float h[N];
  int hi[N];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::memcpy(hi, h, sizeof hi);
  int nans = 0;
  for (int i = 0; i < N; ++i) nans += std::isnan(h[i]) && hi[i] == -1;
  std::printf("unwritten device floats that are NaN: %d of %d\n", nans, N);

  // Copies must stay inside the allocation.
  cudaError_t e = cudaMemcpy(h, d, 2 * sizeof h, cudaMemcpyDeviceToHost);
  std::printf("oversized cudaMemcpy: %s, last error %s\n", cudaGetErrorName(e),
              cudaGetErrorName(cudaGetLastError()));
  e = cudaMemcpy(d, h, sizeof h, cudaMemcpyDeviceToHost);  // wrong direction
  std::printf("host pointer as device source: %s\n", cudaGetErrorName(e));
  std::printf("after read: %s\n", cudaGetErrorName(cudaGetLastError()));

  for (int i = 0; i < N; ++i) h[i] = (float)(i + 1);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  const float hc[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  cudaMemcpyToSymbol(coef, hc, sizeof hc);
  float* dout;
  int* diout;
  cudaMalloc(&dout, N * sizeof(float));
  cudaMalloc(&diout, N * sizeof(int));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  an5d_emu_launch(math, dim3(1), dim3(N), (const float*)d, dout, diout);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = -1.0f;
  cudaEventElapsedTime(&ms, start, stop);
  std::printf("event time >= 0: %d\n", ms >= 0.0f);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);

  float out[N];
  int iout[N];
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(iout, diout, sizeof iout, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < N; ++t) {
    const float x = (float)(t + 1);
    float r = std::sqrt(x) + (float)std::sqrt((double)x) + x + 1.0f + x * x + std::fmax(x, 1.0f) +
              std::fmin(x, 1.0f) + x / 2.0f + 1.0f / std::sqrt(x);
    r *= hc[t % 4];
    if (std::fabs(out[t] - r) > 1e-3f * r) ++bad;
    int want = (t < 3 ? t : 3) + (t > 5 ? t : 5) + (t < 2 ? t : 2) + (t > 1 ? t : 1);
    if (iout[t] != want) ++bad;
  }
  std::printf("math mismatches: %d\n", bad);

  int* dres;
  cudaMalloc(&dres, 4 * sizeof(int));
  an5d_emu_launch(votes, dim3(2), dim3(100), dres);
  int res[4];
  cudaMemcpy(res, dres, sizeof res, cudaMemcpyDeviceToHost);
  std::printf("syncthreads count %d and %d or %d and %d\n", res[0], res[1], res[2], res[3]);

  std::printf("cudaFree: %s\n", cudaGetErrorName(cudaFree(d)));
  std::printf("cudaFree again: %s\n", cudaGetErrorName(cudaFree(d)));
  cudaFree(dout);
  cudaFree(diout);
  cudaFree(dres);
  std::printf("DONE\n");
  return 0;
}
