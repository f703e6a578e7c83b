/* A stencil written with local scalars in the loop body, as codes often
   are: the Laplacian in one, a flux from it in another (declared float but
   computed in double, so rounding at the declaration shows), one used
   twice. Usage: local-temps-2d n m T out.bin (both planes) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, ELEM (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        ELEM lap = A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j - 1]
                   + A[t % 2][i][j + 1] - 4 * A[t % 2][i][j];
        float flux = 0.1 * lap + 0.05 * A[t % 2][i][j + 1], damp = 0.5f;
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] + 0.1f * lap + flux * (1 - damp)
                               - 0.01f * flux * flux;
      }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
  run(T, n, m, (ELEM (*)[n][m])buf);
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * n * m);
}
