/* The wave equation, second order in time: one array of three planes in
   turn, the previous step read at a star of radius 1 and the step before
   it at the cell itself.
   Usage: wave-2d n m T out.bin (all three planes) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, ELEM c, ELEM (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 2) % 3][i][j] = 2 * A[(t + 1) % 3][i][j] - A[t % 3][i][j]
            + c * (A[(t + 1) % 3][i - 1][j] + A[(t + 1) % 3][i + 1][j]
                   + A[(t + 1) % 3][i][j - 1] + A[(t + 1) % 3][i][j + 1]
                   - 4 * A[(t + 1) % 3][i][j]);
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_three_planes((long)n * m, sizeof(ELEM));
  run(T, n, m, (ELEM)0.2, (ELEM (*)[n][m])buf);
  return write_cells(argv[4], buf, sizeof(ELEM) * 3 * (long)n * m);
}
