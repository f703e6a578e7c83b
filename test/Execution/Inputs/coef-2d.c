/* Coefficient arrays: a 2D stencil whose update reads, besides the grid,
   a coefficient per cell c (one past the grid on each side, read at
   offsets), a row of weights w along j and a column of weights v along i
   (pointers to variable-length rows), of float and double.
   Usage: coef-2d n m T out.bin (both planes) */
#include "common.h"

#ifndef ELEM
#ifdef USE_DOUBLE
#define ELEM double
#else
#define ELEM float
#endif
#endif

static void run(int T, int n, int m, ELEM (*A)[n][m], const ELEM (*c)[m + 2],
                const double *w, const float *v)
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = c[i + 1][j + 1] * A[t % 2][i][j]
            + c[i][j + 1] * A[t % 2][i - 1][j] + c[i + 2][j + 1] * A[t % 2][i + 1][j]
            + w[j - 1] * A[t % 2][i][j - 1] + w[j + 1] * A[t % 2][i][j + 1]
            + v[i] * (A[t % 2][i - 1][j - 1] - A[t % 2][i + 1][j + 1]) + c[0][j];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
  ELEM *c = (ELEM *)malloc(sizeof(ELEM) * (n + 2) * (m + 2));
  double *w = (double *)malloc(sizeof(double) * m);
  float *v = (float *)malloc(sizeof(float) * n);
  for (long x = 0; x < (long)(n + 2) * (m + 2); x++)
    c[x] = (ELEM)(0.05 + 0.1 * ((x * 13 + 5) % 7) / 7.0);
  for (int j = 0; j < m; j++)
    w[j] = 0.08 + 0.01 * (j % 5);
  for (int i = 0; i < n; i++)
    v[i] = 0.02f * (float)(i % 3);
  run(T, n, m, (void *)buf, (void *)c, w, v);
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * n * m);
}
