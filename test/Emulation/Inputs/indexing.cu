// 2D block (16x8) in a 3D grid (3x2x4): every thread records its built-in
// variables; the host checks them all and that each element is written once.
#include <cstdio>

#ifdef AN5D_EMULATION
#define AN5D_LAUNCH(kernel, grid, block, ...) an5d_emu_launch(kernel, grid, block, __VA_ARGS__)
#else
#define AN5D_LAUNCH(kernel, grid, block, ...) kernel<<<grid, block>>>(__VA_ARGS__)
#endif

struct Rec {
  unsigned tx, ty, tz, bx, by, bz, bdx, bdy, bdz, gdx, gdy, gdz;
};

__global__ void record(Rec* out, int* hits) {
  const unsigned bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned i = bid * (blockDim.x * blockDim.y * blockDim.z) + tid;
  out[i] = Rec{threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
               blockDim.x,  blockDim.y,  blockDim.z,  gridDim.x,  gridDim.y,  gridDim.z};
  atomicAdd(&hits[i], 1);
}

int main() {
  const dim3 grid(3, 2, 4), block(16, 8);
  const unsigned n = 3 * 2 * 4 * 16 * 8;
  Rec* d;
  int* dh;
  cudaMalloc(&d, n * sizeof(Rec));
  cudaMalloc(&dh, n * sizeof(int));
  cudaMemset(dh, 0, n * sizeof(int));
  AN5D_LAUNCH(record, grid, block, d, dh);
  if (cudaGetLastError() != cudaSuccess) { std::printf("FAIL: launch\n"); return 1; }
  static Rec h[3 * 2 * 4 * 16 * 8];
  static int hits[3 * 2 * 4 * 16 * 8];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hits, dh, sizeof hits, cudaMemcpyDeviceToHost);
  int bad = 0;
  unsigned i = 0;
  for (unsigned bz = 0; bz < 4; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned ty = 0; ty < 8; ++ty)
          for (unsigned tx = 0; tx < 16; ++tx, ++i) {
            const Rec& r = h[i];
            if (hits[i] != 1 || r.tx != tx || r.ty != ty || r.tz != 0 || r.bx != bx ||
                r.by != by || r.bz != bz || r.bdx != 16 || r.bdy != 8 || r.bdz != 1 ||
                r.gdx != 3 || r.gdy != 2 || r.gdz != 4) {
              if (bad < 5) std::printf("wrong record %u\n", i);
              ++bad;
            }
          }
  if (bad) { std::printf("FAIL: %d wrong\n", bad); return 1; }
  std::printf("PASS: %u threads, block 16x8x1, grid 3x2x4\n", n);
  return 0;
}
