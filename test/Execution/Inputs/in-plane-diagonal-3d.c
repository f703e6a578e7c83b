/* A diagonal-access-free 3D stencil (the star kernels apply) that reads
   diagonals inside its own plane and reaches further along k on one side
   (k [-1, +5]) than a vector of 4 cells: the vector kernel then loads two
   vectors to the right. A scalar coefficient comes from the caller.
   Usage: in-plane-diagonal-3d n m l T out.bin */
#include "common.h"

static void run(int T, int n, int m, int l, float c, float (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 5; k++)
          A[(t + 1) % 2][i][j][k] = c * A[t % 2][i][j][k]
              + 0.11f * A[t % 2][i - 1][j][k] + 0.09f * A[t % 2][i + 1][j][k]
              + 0.1f * A[t % 2][i][j - 1][k + 1] + 0.12f * A[t % 2][i][j + 1][k - 1]
              + 0.1f * A[t % 2][i][j + 1][k + 1] + 0.08f * A[t % 2][i][j][k + 5]
              + 0.1f * A[t % 2][i][j][k - 1] - 0.05f * A[t % 2][i][j][k + 5];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  long cells = (long)n * m * l;
  float *buf = (float *)new_planes(cells, sizeof(float));
  run(T, n, m, l, 0.2f, (void *)buf);
  return write_cells(argv[5], buf, sizeof(float) * 2 * cells);
}
