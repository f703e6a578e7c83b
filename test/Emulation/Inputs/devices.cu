// Several emulated devices (an5d_emu/devices.h): AN5D_EMU_DEVICES, the
// current device, memory and default streams per device, peer copies and
// peer access. With an argument "fault", a kernel on device 0 is given
// device 1's memory without peer access, which stops the emulation.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__global__ void sum(const float *in, int n, float *out) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  *out = s;
}

// The sum of dev[0 .. n-1] by a kernel on the current device's default
// stream (`result` on the current device).
static float device_sum(const float *dev, int n, float *result) {
  an5d_emu_launch(sum, dim3(1), dim3(1), dev, n, result);
  float h = 0;
  cudaMemcpy(&h, result, sizeof h, cudaMemcpyDeviceToHost);
  return h;
}

int main(int argc, char **argv) {
  int count = 0, current = -1;
  cudaGetDeviceCount(&count);
  printf("devices: %d\n", count);
  printf("cudaSetDevice(%d): %s\n", count, cudaGetErrorName(cudaSetDevice(count)));
  cudaSetDevice(1);
  cudaGetDevice(&current);
  printf("current: %d\n", current);

  const int n = 16;
  float *d0, *r0, *d1, *r1, *pinned;
  cudaSetDevice(0);
  cudaMalloc(&d0, n * sizeof(float));
  cudaMalloc(&r0, sizeof(float));
  cudaSetDevice(1);
  cudaMalloc(&d1, n * sizeof(float));
  cudaMalloc(&r1, sizeof(float));
  cudaMallocHost(&pinned, n * sizeof(float));
  for (int i = 0; i < n; ++i) pinned[i] = 1.0f;
  cudaMemcpy(d1, pinned, n * sizeof(float), cudaMemcpyHostToDevice);

  // Memory per device: device 1 holds 68 bytes of its 4 KiB cap.
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  printf("device 1 memory: total %zu free %zu\n", total, free_bytes);

  int can = -1;
  cudaDeviceCanAccessPeer(&can, 0, 1);
  printf("0 can access 1: %d\n", can);
  cudaDeviceCanAccessPeer(&can, 1, 1);
  printf("1 can access 1: %d\n", can);

  // A peer copy on device 0's stream lands when waited for.
  cudaSetDevice(0);
  cudaStream_t s0;
  cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking);
  cudaEvent_t e0;
  cudaEventCreate(&e0);
  cudaMemcpyPeerAsync(d0, 0, d1, 1, n * sizeof(float), s0);
  cudaEventRecord(e0, s0);
  printf("before the wait: %g\n", device_sum(d0, n, r0));
  cudaStreamWaitEvent(0, e0, 0);
  printf("after the wait: %g\n", device_sum(d0, n, r0));

  // Each side must lie in an allocation of the device named.
  printf("peer copy from the wrong device: %s\n",
         cudaGetErrorName(cudaMemcpyPeerAsync(d0, 0, d1, 0, n * sizeof(float), s0)));
  cudaGetLastError();

  // An event is recorded on a stream of its own device only.
  cudaSetDevice(1);
  cudaStream_t s1, blocking1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreate(&blocking1);
  printf("record device 0's event on device 1's stream: %s\n",
         cudaGetErrorName(cudaEventRecord(e0, s1)));
  cudaGetLastError();

  // Device 1's blocking stream: device 0's default stream and
  // cudaDeviceSynchronize leave it; device 1's default stream waits for it.
  for (int i = 0; i < n; ++i) pinned[i] = 2.0f;
  cudaMemcpyAsync(d1, pinned, n * sizeof(float), cudaMemcpyHostToDevice, blocking1);
  cudaSetDevice(0);
  cudaDeviceSynchronize();
  cudaMemcpyPeer(d0, 0, d1, 1, n * sizeof(float));
  printf("device 0's default stream: %g\n", device_sum(d0, n, r0));
  cudaSetDevice(1);
  printf("device 1's default stream: %g\n", device_sum(d1, n, r1));

  // Peer access is enabled once.
  cudaSetDevice(0);
  printf("enable 0 -> 1: %s\n", cudaGetErrorName(cudaDeviceEnablePeerAccess(1, 0)));
  printf("again: %s\n", cudaGetErrorName(cudaDeviceEnablePeerAccess(1, 0)));
  cudaGetLastError();
  printf("kernel on device 0 reads device 1: %g\n", device_sum(d1, n, r0));
  printf("disable: %s\n", cudaGetErrorName(cudaDeviceDisablePeerAccess(1)));
  if (argc > 1 && strcmp(argv[1], "fault") == 0)
    device_sum(d1, n, r0);
  printf("DONE\n");
  return 0;
}
