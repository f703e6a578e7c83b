/* The two planes selected as programs often write it: the write plane as
   '1 - t % 2' (default), through int locals of the time step ('int cur = t
   % 2, nxt = 1 - cur;', -DLOCALS), or with bit operations ('(t & 1) ^ 1',
   -DBITS). Usage: plane-selectors n m t0 T out.bin (t0 >= 0) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int t0, int T, int n, int m, ELEM A[2][n][m])
{
#pragma scop
  for (int t = t0; t < t0 + T; t++) {
#if defined(LOCALS)
    int cur = t % 2, nxt = 1 - cur;
#elif defined(BITS)
    const int cur = t & 1;
    const int nxt = cur ^ 1;
#else
#define cur (t % 2)
#define nxt (1 - t % 2)
#endif
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[nxt][i][j] = 0.1f * A[cur][i][j - 1] + 0.6f * A[cur][i][j]
                     + 0.3f * A[cur][i + 1][j] - 0.05f * A[cur][i - 1][j];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), t0 = atoi(argv[3]), T = atoi(argv[4]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
  run(t0, T, n, m, (void *)buf);
  return write_cells(argv[5], buf, sizeof(ELEM) * 2 * n * m);
}
