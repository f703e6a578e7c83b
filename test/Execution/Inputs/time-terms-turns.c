/* The step as a value and an array read at the step (f[t] * t) with two
   arrays in turn: both nests of an iteration read the same t, from t0.
   Usage: time-terms-turns n t0 T out.bin (A, then B) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void turns(int t0, int T, int n, ELEM A[n][n], ELEM B[n][n], const ELEM *f)
{
#pragma scop
  for (int t = t0; t < t0 + T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2f * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]) + f[t] * t;
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = 0.2f * (B[i][j] + B[i - 1][j] + B[i + 1][j] + B[i][j - 1] + B[i][j + 1]) + f[t] * t;
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), t0 = atoi(argv[2]), T = atoi(argv[3]);
  long cells = (long)n * n;
  ELEM *buf = (ELEM *)new_planes(cells, sizeof(ELEM));
  ELEM *f = (ELEM *)malloc(sizeof(ELEM) * (t0 + T + 2));
  for (int t = 0; t < t0 + T + 2; t++)
    f[t] = (ELEM)(0.001 * ((t * 3) % 5));
  turns(t0, T, n, (void *)buf, (void *)(buf + cells), f);
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * cells);
}
