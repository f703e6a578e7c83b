// Invalid launch configurations are reported through cudaGetLastError() with
// cudaErrorInvalidConfiguration, and the kernel does not run.
#include <cstdio>

__global__ void mark(int* flag) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *flag = 1;
}

static int check(const char* what, int* d, dim3 grid, dim3 block) {
  cudaMemset(d, 0, sizeof(int));
  an5d_emu_launch(mark, grid, block, d);
  cudaError_t peek = cudaPeekAtLastError();
  cudaError_t err = cudaGetLastError();
  int flag = -1;
  cudaMemcpy(&flag, d, sizeof flag, cudaMemcpyDeviceToHost);
  std::printf("%s: %s (%s), kernel %s\n", what, cudaGetErrorName(err), cudaGetErrorString(err),
              flag ? "ran" : "did not run");
  const bool ok = peek == err && err == cudaErrorInvalidConfiguration && flag == 0 &&
                  cudaGetLastError() == cudaSuccess;
  return ok ? 0 : 1;
}

int main() {
  int* d;
  cudaMalloc(&d, sizeof(int));
  int bad = 0;
  bad += check("block 2048", d, dim3(1), dim3(2048));
  bad += check("block 32x32x2", d, dim3(1), dim3(32, 32, 2));
  bad += check("block z 65", d, dim3(1), dim3(1, 1, 65));
  bad += check("grid 0", d, dim3(0), dim3(32));
  bad += check("grid y 65536", d, dim3(1, 65536), dim3(32));

  // A valid launch afterwards works and leaves no error behind.
  cudaMemset(d, 0, sizeof(int));
  an5d_emu_launch(mark, dim3(1), dim3(1024), d);
  int flag = 0;
  cudaMemcpy(&flag, d, sizeof flag, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess || flag != 1) ++bad;
  std::printf("block 1024: kernel %s\n", flag ? "ran" : "did not run");
  std::printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
