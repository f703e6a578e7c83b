/* Asymmetric 3D reach (i [-0, +2], j [-1, +0], k [-2, +1]), double, both
   time planes starting equal: their boundaries agree, so out of core sends
   one plane per chunk and copies it into the other on the device.
   Usage: same-boundary-3d n m l T out.bin */
#include "common.h"
#include <string.h>

static void run(int T, int n, int m, int l, double (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 0; i < n - 2; i++)
      for (int j = 1; j < m; j++)
        for (int k = 2; k < l - 1; k++)
          A[(t + 1) % 2][i][j][k] = 0.3 * A[t % 2][i][j][k] + 0.2 * A[t % 2][i + 2][j][k]
                                  + 0.15 * A[t % 2][i][j - 1][k] + 0.1 * A[t % 2][i][j][k - 2]
                                  + 0.1 * A[t % 2][i + 1][j - 1][k + 1] + 0.14 * A[t % 2][i][j][k + 1];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  long cells = (long)n * m * l;
  double *buf = (double *)new_planes(cells, sizeof(double));
  memcpy(buf + cells, buf, sizeof(double) * cells);
  run(T, n, m, l, (void *)buf);
  return write_cells(argv[5], buf, sizeof(double) * 2 * cells);
}
