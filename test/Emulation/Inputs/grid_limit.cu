// Built with -DAN5D_MAX_GRID_YZ=3: the emulated device takes at most 3
// blocks along a launch's y and z, reports so in its properties, and refuses
// a launch past it as CUDA does one past 65,535.
#include <cstdio>

__global__ void mark(int* flag) {
  if (threadIdx.x == 0 && blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) *flag = 1;
}

static int launch(const char* what, int* d, dim3 grid, bool valid) {
  cudaMemset(d, 0, sizeof(int));
  an5d_emu_launch(mark, grid, dim3(1), d);
  cudaError_t err = cudaGetLastError();
  int flag = -1;
  cudaMemcpy(&flag, d, sizeof flag, cudaMemcpyDeviceToHost);
  std::printf("%s: %s, kernel %s\n", what, cudaGetErrorName(err), flag ? "ran" : "did not run");
  const bool ok = valid ? err == cudaSuccess && flag == 1
                        : err == cudaErrorInvalidConfiguration && flag == 0;
  return ok ? 0 : 1;
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("maxGridSize %d x %d x %d\n", prop.maxGridSize[0], prop.maxGridSize[1],
              prop.maxGridSize[2]);
  int* d;
  cudaMalloc(&d, sizeof(int));
  int bad = prop.maxGridSize[1] != 3 || prop.maxGridSize[2] != 3;
  bad += launch("grid 5x3x3", d, dim3(5, 3, 3), true);
  bad += launch("grid y 4", d, dim3(1, 4, 1), false);
  bad += launch("grid z 4", d, dim3(1, 1, 4), false);
  std::printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
