/* The wave equation as many codes write it: two planes, the new level
   written over the one two steps back, which the update reads at the cell
   itself (A[(t + 1) % 2][i][j] on the right: three time levels).
   Usage: leapfrog-2d n m T out.bin (both planes) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, ELEM c, ELEM (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 2; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 2 * A[t % 2][i][j] - A[(t + 1) % 2][i][j]
            + c * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j - 2]
                   + A[t % 2][i][j + 1] - 4 * A[t % 2][i][j]);
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
  run(T, n, m, (ELEM)0.2, (ELEM (*)[n][m])buf);
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * (long)n * m);
}
