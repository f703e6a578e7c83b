/* A staggered (Yee) grid in 2D: ey of (n + 1) x m, ex of n x (m + 1) and hz
   of n x m cells, each updated in place by its own nest from the others as
   the TE-mode FDTD scheme does (fdtd-2d with the fields at their own
   extents). With -DROWS the three are pointers to rows whose row counts the
   accesses decide; with -DSWAP also hz is two arrays, the step writing hzn
   and swapping the pointers after its nests.
   Usage: fields-staggered-2d n m T out.bin (ey, ex, hz[, hzn]) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

#if defined(SWAP)
static void run(int T, int n, int m, ELEM *buf)
{
  ELEM (*ey)[m] = (ELEM (*)[m])buf;
  ELEM (*ex)[m + 1] = (ELEM (*)[m + 1])(buf + (long)(n + 1) * m);
  ELEM (*hz)[m] = (ELEM (*)[m])(buf + (long)(n + 1) * m + (long)n * (m + 1));
  ELEM (*hzn)[m] = hz + n;
  ELEM (*tmp)[m];
#elif defined(ROWS)
static void run(int T, int n, int m, ELEM *buf)
{
  ELEM (*ey)[m] = (ELEM (*)[m])buf;
  ELEM (*ex)[m + 1] = (ELEM (*)[m + 1])(buf + (long)(n + 1) * m);
  ELEM (*hz)[m] = (ELEM (*)[m])(buf + (long)(n + 1) * m + (long)n * (m + 1));
#else
static void fdtd(int T, int n, int m, ELEM ey[n + 1][m], ELEM ex[n][m + 1],
                 ELEM hz[n][m])
{
#endif
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n; i++)
      for (int j = 0; j < m; j++)
        ey[i][j] = ey[i][j] - 0.5f * (hz[i][j] - hz[i - 1][j]);
    for (int i = 0; i < n; i++)
      for (int j = 1; j < m; j++)
        ex[i][j] = ex[i][j] - 0.5f * (hz[i][j] - hz[i][j - 1]);
#ifdef SWAP
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        hzn[i][j] = hz[i][j] - 0.7f * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    tmp = hz; hz = hzn; hzn = tmp;
#else
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        hz[i][j] = hz[i][j] - 0.7f * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
#endif
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  long cells = (long)(n + 1) * m + (long)n * (m + 1) + (long)n * m;
#ifdef SWAP
  cells += (long)n * m;
#endif
  ELEM *buf = (ELEM *)new_planes((cells + 1) / 2, sizeof(ELEM));
#if defined(ROWS) || defined(SWAP)
  run(T, n, m, buf);
#else
  fdtd(T, n, m, (ELEM (*)[m])buf, (ELEM (*)[m + 1])(buf + (long)(n + 1) * m),
       (ELEM (*)[m])(buf + (long)(n + 1) * m + (long)n * (m + 1)));
#endif
  return write_cells(argv[4], buf, sizeof(ELEM) * cells);
}
