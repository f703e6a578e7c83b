/* A pointer swap of flat pointers whose loops are nested j outer, i inner
   while the index runs in rows of m (u[i * m + j]).
   Usage: loop-order-flat n m T out.bin (both buffers) */
#include "common.h"
static void run(int T, int n, int m, float *in, float *out)
{
  float *tmp;
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int j = 1; j < m - 1; j++)
      for (int i = 1; i < n - 1; i++)
        out[i * m + j] = 0.2f * in[i * m + j] + 0.3f * in[(i - 1) * m + j] + 0.1f * in[(i + 1) * m + j] + 0.25f * in[i * m + j - 1] + 0.15f * in[i * m + j + 1];
    tmp = in; in = out; out = tmp;
  }
#pragma endscop
}
int main(int argc, char **argv)
{
  if (argc != 5) return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  float *buf = (float *)new_planes((long)n * m, sizeof(float));
  run(T, n, m, buf, buf + (long)n * m);
  return write_cells(argv[4], buf, sizeof(float) * 2 * n * m);
}
