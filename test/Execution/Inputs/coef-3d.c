/* Coefficient arrays in 3D, two arrays in turn (PolyBench's form): a
   per-cell conductivity kappa of the grid's size, a weight per plane
   along i and one along k. Usage: coef-3d n m l T out.bin (A, then B) */
#include "common.h"

#ifdef USE_DOUBLE
#define ELEM double
#else
#define ELEM float
#endif

static void run(int T, int n, int m, int l, ELEM A[n][m][l], ELEM B[n][m][l],
                ELEM (*kappa)[m][l], ELEM *wi, ELEM *wk)
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          B[i][j][k] = A[i][j][k] + kappa[i][j][k] * (wi[i - 1] * A[i - 1][j][k]
              + wi[i + 1] * A[i + 1][j][k] + A[i][j - 1][k] + A[i][j + 1][k]
              + wk[k] * (A[i][j][k - 1] + A[i][j][k + 1]) - 4.5f * A[i][j][k]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          A[i][j][k] = B[i][j][k] + kappa[i][j][k] * (wi[i - 1] * B[i - 1][j][k]
              + wi[i + 1] * B[i + 1][j][k] + B[i][j - 1][k] + B[i][j + 1][k]
              + wk[k] * (B[i][j][k - 1] + B[i][j][k + 1]) - 4.5f * B[i][j][k]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  long cells = (long)n * m * l;
  ELEM *buf = (ELEM *)new_planes(cells, sizeof(ELEM));
  ELEM *kappa = (ELEM *)malloc(sizeof(ELEM) * cells);
  ELEM *wi = (ELEM *)malloc(sizeof(ELEM) * n);
  ELEM *wk = (ELEM *)malloc(sizeof(ELEM) * l);
  for (long x = 0; x < cells; x++)
    kappa[x] = (ELEM)(0.02 + 0.01 * ((x * 11 + 3) % 9) / 9.0);
  for (int i = 0; i < n; i++)
    wi[i] = (ELEM)(0.9 + 0.05 * (i % 4));
  for (int k = 0; k < l; k++)
    wk[k] = (ELEM)(1.1 - 0.03 * (k % 6));
  run(T, n, m, l, (void *)buf, (void *)(buf + cells), (void *)kappa, wi, wk);
  return write_cells(argv[5], buf, sizeof(ELEM) * 2 * cells);
}
