// Streams, events and asynchronous copies of the emulation (an5d_emu/streams.h),
// and the device memory cap (AN5D_EMU_DEVICE_MEMORY).
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__global__ void sum(const float *in, int n, float *out) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  *out = s;
}

// The sum of dev[0 .. n-1], computed by a kernel on the default stream.
static float device_sum(const float *dev, int n, float *result) {
  an5d_emu_launch(sum, dim3(1), dim3(1), dev, n, result);
  float h = 0;
  cudaMemcpy(&h, result, sizeof h, cudaMemcpyDeviceToHost);
  return h;
}

int main() {
  const int n = 16;
  float *dev, *result, *pinned, pageable[n];
  cudaMalloc(&dev, n * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMallocHost(&pinned, n * sizeof(float));
  for (int i = 0; i < n; ++i) pinned[i] = pageable[i] = 1.0f;
  cudaStream_t s, blocking;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaStreamCreate(&blocking);
  cudaEvent_t e;
  cudaEventCreate(&e);

  // A pinned copy on a non-blocking stream lands only once waited for.
  cudaMemcpyAsync(dev, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaEventRecord(e, s);
  printf("before the wait: %g\n", device_sum(dev, n, result));
  cudaStreamWaitEvent(0, e, 0);
  printf("after the wait: %g\n", device_sum(dev, n, result));

  // A copy reads its source when it runs: a source rewritten first is seen.
  cudaMemcpyAsync(dev, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
  for (int i = 0; i < n; ++i) pinned[i] = 2.0f;
  cudaStreamSynchronize(s);
  printf("source rewritten before the sync: %g\n", device_sum(dev, n, result));

  // Device to pinned host: the host sees the data after the event only.
  memset(pinned, 0, n * sizeof(float));
  cudaMemcpyAsync(pinned, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  printf("host before the event: %g\n", pinned[0]);
  cudaEventSynchronize(e);
  printf("host after the event: %g\n", pinned[0]);

  // Pageable host memory: the asynchronous copy is synchronous.
  cudaMemcpyAsync(dev, pageable, n * sizeof(float), cudaMemcpyHostToDevice, s);
  printf("pageable: %g\n", device_sum(dev, n, result));

  // The legacy default stream waits for a blocking stream's work.
  for (int i = 0; i < n; ++i) pinned[i] = 3.0f;
  cudaMemcpyAsync(dev, pinned, n * sizeof(float), cudaMemcpyHostToDevice, blocking);
  printf("blocking stream: %g\n", device_sum(dev, n, result));

  // cudaFree waits for all queued work.
  for (int i = 0; i < n; ++i) pinned[i] = 4.0f;
  cudaMemcpyAsync(dev, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
  float *other;
  cudaMalloc(&other, 4);
  cudaFree(other);
  for (int i = 0; i < n; ++i) pinned[i] = 5.0f;
  printf("after cudaFree: %g\n", device_sum(dev, n, result));

  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  printf("memory: total %zu free %zu\n", total, free_bytes);
  void *big = NULL;
  cudaError_t err = cudaMalloc(&big, free_bytes + 1);
  printf("over the cap: %s, last error %s\n", cudaGetErrorName(err),
         cudaGetErrorName(cudaGetLastError()));
  printf("the whole rest: %s\n", cudaGetErrorName(cudaMalloc(&big, free_bytes)));
  cudaFree(big);
  printf("cudaFreeHost of a pageable pointer: %s\n", cudaGetErrorName(cudaFreeHost(pageable)));
  cudaEventDestroy(e);
  cudaStreamDestroy(s);
  cudaStreamDestroy(blocking);
  cudaFreeHost(pinned);
  cudaFree(dev);
  cudaFree(result);
  printf("DONE\n");
  return 0;
}
