/* The 3D wave equation (three time levels) with its Laplacian in a function
   that takes the level and the cell, 'lap7(n, m, l, A[(t + 1) % 3], i, j,
   k)', and a function of two levels' values; -DCOEF: a coefficient array
   passed to the function too, read at the cell. Usage: user-functions-3d n
   m l T out.bin (all three planes) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static ELEM lap7(int n, int m, int l, ELEM (*a)[m][l], int i, int j, int k)
{
  return a[i - 1][j][k] + a[i + 1][j][k] + a[i][j - 1][k] + a[i][j + 1][k] +
         a[i][j][k - 1] + a[i][j][k + 1] - 6 * a[i][j][k];
}

static inline ELEM leap(ELEM now, ELEM before) { return 2 * now - before; }

#ifdef COEF
static ELEM speed(int m, int l, const ELEM (*c)[m][l], int i, int j, int k)
{
  return c[i][j][k] * c[i][j][k];
}
#define C2 speed(m, l, c, i, j, k)
#else
#define C2 0.02f
#endif

static void run(int T, int n, int m, int l, ELEM (*A)[n][m][l],
                const ELEM (*c)[m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          A[(t + 2) % 3][i][j][k] =
              leap(A[(t + 1) % 3][i][j][k], A[t % 3][i][j][k]) +
              C2 * lap7(n, m, l, A[(t + 1) % 3], i, j, k);
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  long cells = (long)n * m * l;
  ELEM *buf = (ELEM *)new_three_planes(cells, sizeof(ELEM));
  ELEM *c = (ELEM *)malloc(sizeof(ELEM) * cells);
  for (long x = 0; x < cells; x++)
    c[x] = (ELEM)(0.1 + 0.05 * (double)(x % 7) / 7.0);
  run(T, n, m, l, (void *)buf, (void *)c);
  return write_cells(argv[5], buf, sizeof(ELEM) * 3 * cells);
}
