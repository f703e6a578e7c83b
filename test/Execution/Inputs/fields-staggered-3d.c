/* Two fields of different extents in 3D: u of n x m x p cells and w of
   n x (m - 1) x (p + 2), each updated in place by its own nest from its own
   cell and the other field's neighbours (u reads w up to two cells along k,
   w reads what the first nest wrote this step). With
   -DROWS both are pointers to planes whose plane counts the accesses decide.
   Usage: fields-staggered-3d n m p T out.bin (u, w) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

#ifdef ROWS
static void run(int T, int n, int m, int p, ELEM *buf)
{
  ELEM (*u)[m][p] = (ELEM (*)[m][p])buf;
  ELEM (*w)[m - 1][p + 2] = (ELEM (*)[m - 1][p + 2])(buf + (long)n * m * p);
#else
static void run(int T, int n, int m, int p, ELEM u[n][m][p],
                ELEM w[n][m - 1][p + 2])
{
#endif
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < p - 1; k++)
          u[i][j][k] = 0.95f * u[i][j][k] + 0.1f * (w[i][j][k + 2] - w[i][j - 1][k])
                       + 0.05f * (w[i - 1][j][k] + w[i + 1][j - 1][k + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 0; j < m - 2; j++)
        for (int k = 1; k < p + 1; k++)
          w[i][j][k] = 0.9f * w[i][j][k] + 0.05f * (u[i][j + 1][k - 1] + u[i + 1][j][k - 1]
                                                    - u[i - 1][j + 1][k - 1]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), p = atoi(argv[3]), T = atoi(argv[4]);
  const long cells = (long)n * m * p + (long)n * (m - 1) * (p + 2);
  ELEM *buf = (ELEM *)new_planes((cells + 1) / 2, sizeof(ELEM));
#ifdef ROWS
  run(T, n, m, p, buf);
#else
  run(T, n, m, p, (ELEM (*)[m][p])buf,
      (ELEM (*)[m - 1][p + 2])(buf + (long)n * m * p));
#endif
  return write_cells(argv[5], buf, sizeof(ELEM) * cells);
}
