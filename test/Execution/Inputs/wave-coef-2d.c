/* The wave equation with a velocity per cell (a coefficient array) and a
   source term of the step at every cell: three time levels with the
   update's other inputs.
   Usage: wave-coef-2d n m T out.bin (all three planes) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, ELEM (*A)[n][m], ELEM (*vel)[m],
                ELEM *src)
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 2) % 3][i][j] = 2 * A[(t + 1) % 3][i][j] - A[t % 3][i][j]
            + vel[i][j] * (A[(t + 1) % 3][i - 1][j] + A[(t + 1) % 3][i + 1][j]
                           + A[(t + 1) % 3][i][j - 1] + A[(t + 1) % 3][i][j + 1]
                           - 4 * A[(t + 1) % 3][i][j])
            + src[t];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  long cells = (long)n * m;
  ELEM *buf = (ELEM *)new_three_planes(cells, sizeof(ELEM));
  ELEM *vel = (ELEM *)malloc(sizeof(ELEM) * cells);
  ELEM *src = (ELEM *)malloc(sizeof(ELEM) * (T + 1));
  if (vel == NULL || src == NULL)
    return 1;
  for (long c = 0; c < cells; c++)
    vel[c] = (ELEM)(0.05 + 0.15 * (double)((c * 7 + 3) % 13) / 13.0);
  for (int t = 0; t <= T; t++)
    src[t] = (ELEM)(0.01 * (t % 5));
  run(T, n, m, (ELEM (*)[n][m])buf, (ELEM (*)[m])vel, src);
  return write_cells(argv[4], buf, sizeof(ELEM) * 3 * cells);
}
