/* fdtd-2d's updates written with local scalars, three fields in place: ey
   and ex from differences of hz kept in locals, then hz from a local curl
   of the new ex and ey (-DACCUM: the curl accumulated, 'curl += ...').
   Usage: fields-local-2d n m T out.bin (ey, ex, hz) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, ELEM (*ey)[m], ELEM (*ex)[m],
                ELEM (*hz)[m])
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        ELEM dh = hz[i][j] - hz[i - 1][j], dw = hz[i][j] - hz[i][j - 1];
        ey[i][j] = ey[i][j] - 0.5 * dh;
        ex[i][j] = ex[i][j] - 0.5 * dw + 0.01 * dh;
      }
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
#ifdef ACCUM
        float curl = ex[i][j + 1] - ex[i][j];
        curl += ey[i + 1][j];
        curl -= ey[i][j];
#else
        float curl = ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j];
#endif
        hz[i][j] = hz[i][j] - 0.7 * curl;
      }
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  const long cells = (long)n * m;
  ELEM *buf = (ELEM *)new_planes(cells + cells / 2 + 1, sizeof(ELEM));
  run(T, n, m, (ELEM (*)[m])buf, (ELEM (*)[m])(buf + cells),
      (ELEM (*)[m])(buf + 2 * cells));
  return write_cells(argv[4], buf, sizeof(ELEM) * 3 * cells);
}
