// Host link bandwidth: host to device, device to host and both at once, on
// one GPU and on two side by side, 2 GiB copies from pinned (portable) host
// buffers, the second of two runs timed. Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 host-link-bandwidth.cu -o bw && ./bw
#include <cstdio>
#include <chrono>
#include <cuda_runtime.h>
int main() {
  const size_t B = (size_t)2 << 30;
  int n = 0;
  cudaGetDeviceCount(&n);
  char *hin[2], *hout[2], *din[2], *dout[2];
  cudaStream_t s[2][2];
  for (int d = 0; d < n && d < 2; ++d) {
    cudaSetDevice(d);
    cudaHostAlloc(&hin[d], B, cudaHostAllocPortable);
    cudaHostAlloc(&hout[d], B, cudaHostAllocPortable);
    cudaMalloc(&din[d], B);
    cudaMalloc(&dout[d], B);
    cudaStreamCreate(&s[d][0]);
    cudaStreamCreate(&s[d][1]);
  }
  for (int gpus = 1; gpus <= n && gpus <= 2; ++gpus)
    for (int mode = 0; mode < 3; ++mode) { // 0 in, 1 out, 2 both
      for (int rep = 0; rep < 2; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        for (int d = 0; d < gpus; ++d) {
          cudaSetDevice(d);
          if (mode != 1) cudaMemcpyAsync(din[d], hin[d], B, cudaMemcpyHostToDevice, s[d][0]);
          if (mode != 0) cudaMemcpyAsync(hout[d], dout[d], B, cudaMemcpyDeviceToHost, s[d][1]);
        }
        for (int d = 0; d < gpus; ++d) { cudaSetDevice(d); cudaDeviceSynchronize(); }
        double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double bytes = (double)B * gpus * (mode == 2 ? 2 : 1);
        if (rep == 1)
          printf("bw: %d GPU(s) %s: %.1f GB/s in all\n", gpus,
                 mode == 0 ? "host to device" : mode == 1 ? "device to host" : "both ways at once",
                 bytes / sec / 1e9);
      }
    }
  printf("bw: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
