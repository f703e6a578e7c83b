// Prints how the emulation runs the threads of a block (AN5D_EMU_FIBERS),
// after a launch whose threads pass barriers and count a predicate.
#include <cstdio>

__global__ void count_odd(int* out) {
  __shared__ int v[64];
  v[threadIdx.x] = threadIdx.x;
  __syncthreads();
  const int odd = __syncthreads_count(v[63 - threadIdx.x] & 1);
  if (threadIdx.x == 0) *out = odd;
}

int main() {
  int* d;
  int h = -1;
  cudaMalloc(&d, sizeof(int));
  an5d_emu_launch(count_odd, dim3(3), dim3(64), d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("fibers %d, odd threads %d\n", AN5D_EMU_FIBERS, h);
  return h == 32 ? 0 : 1;
}
