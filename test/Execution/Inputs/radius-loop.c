/* High-order stencils written with a loop over the radius, as seismic and
   CFD codes write them: 'for (int r = 1; r <= R; r++) acc += c[r] * (A[i +
   r][j] + A[i - r][j] + ...)' into a local, then the assignment; -DBOX: a
   3 x 3 box through two nested loops over offsets and a 2D weight array.
   The weights are const arrays with their values here (constants for
   an5dc); -DPARAM_COEF: the radius weights come through a pointer
   parameter (a coefficient array read from memory).
   Usage: radius-loop n m T out.bin */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif
#define R 3

static const ELEM c[R + 1] = {0.4f, 0.1f, 0.04f, 0.01f};
static const ELEM w[3][3] = {{0.05f, 0.1f, 0.05f}, {0.1f, 0.4f, 0.1f},
                             {0.05f, 0.1f, 0.05f}};

#ifdef PARAM_COEF
#define C(r) cp[r]
static void run(int T, int n, int m, ELEM A[2][n][m], const ELEM *cp)
#else
#define C(r) c[r]
static void run(int T, int n, int m, ELEM A[2][n][m])
#endif
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = R; i < n - R; i++)
      for (int j = R; j < m - R; j++) {
#ifdef BOX
        ELEM acc = 0;
        for (int di = -1; di <= 1; di++)
          for (int dj = -1; dj <= 1; dj++)
            acc += w[di + 1][dj + 1] * A[t % 2][i + di][j + dj];
        A[(t + 1) % 2][i][j] = acc;
#else
        ELEM acc = C(0) * A[t % 2][i][j];
        for (int r = 1; r <= R; r++) {
          acc += C(r) * (A[t % 2][i + r][j] + A[t % 2][i - r][j]);
          acc += C(r) * (A[t % 2][i][j + r] + A[t % 2][i][j - r]);
        }
        A[(t + 1) % 2][i][j] = 0.5f * acc;
#endif
      }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
#ifdef PARAM_COEF
  run(T, n, m, (void *)buf, c);
#else
  run(T, n, m, (void *)buf);
#endif
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * n * m);
}
