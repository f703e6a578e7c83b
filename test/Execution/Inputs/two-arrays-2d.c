/* Two arrays in turn (PolyBench's jacobi-2d form) with VLA parameters: each
   time iteration computes B from A, then A from B. The update is asymmetric
   so that a swapped plane or a transposed offset shows.
   Usage: two-arrays-2d n m t0 T out.bin (writes A, then B) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int t0, int T, int n, int m, ELEM A[n][m], ELEM B[n][m])
{
#pragma scop
  for (int t = t0; t < t0 + T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        B[i][j] = 0.1 * A[i][j - 1] + 0.2 * A[i][j] + 0.3 * A[i][j + 1]
                + 0.15 * A[i + 1][j] + 0.25 * A[i - 1][j];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[i][j] = 0.1 * B[i][j - 1] + 0.2 * B[i][j] + 0.3 * B[i][j + 1]
                + 0.15 * B[i + 1][j] + 0.25 * B[i - 1][j];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), t0 = atoi(argv[3]), T = atoi(argv[4]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
  run(t0, T, n, m, (ELEM (*)[m])buf, (ELEM (*)[m])(buf + (long)n * m));
  return write_cells(argv[5], buf, sizeof(ELEM) * 2 * n * m);
}
