/* The wave equation in 3D with a star of radius 2 that reaches one row
   further below than above along i (the older level at the cell itself).
   Usage: wave-3d n m l T out.bin (all three planes) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, int l, ELEM (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 2; i++)
      for (int j = 2; j < m - 2; j++)
        for (int k = 2; k < l - 2; k++)
          A[(t + 2) % 3][i][j][k] = 1.9 * A[(t + 1) % 3][i][j][k]
              - 0.95 * A[t % 3][i][j][k]
              + 0.01 * (A[(t + 1) % 3][i - 1][j][k] + A[(t + 1) % 3][i + 1][j][k]
                        + A[(t + 1) % 3][i + 2][j][k]
                        + A[(t + 1) % 3][i][j - 2][k] + A[(t + 1) % 3][i][j + 1][k]
                        + A[(t + 1) % 3][i][j][k - 1] + A[(t + 1) % 3][i][j][k + 2]);
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  ELEM *buf = (ELEM *)new_three_planes((long)n * m * l, sizeof(ELEM));
  run(T, n, m, l, (ELEM (*)[n][m][l])buf);
  return write_cells(argv[5], buf, sizeof(ELEM) * 3 * (long)n * m * l);
}
