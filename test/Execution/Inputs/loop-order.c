/* A stencil whose spatial loops are nested in another order than the
   array's dimensions: 2D 'for j for i: A[..][i][j]', 3D (-DTHREE) 'for k
   for i for j: A[..][i][j][k]'. The iterators are declared before the loops
   and their final values recorded after the planes (as C leaves them; a
   loop that never runs leaves its iterator at -7).
   Usage: loop-order n m [l] T out.bin */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

#ifdef THREE
static void run(int T, int n, int m, int l, ELEM (*A)[n][m][l], ELEM *marks)
{
  int t = -7, i = -7, j = -7, k = -7;
#pragma scop
  for (t = 0; t < T; t++)
    for (k = 1; k < l - 1; k++)
      for (i = 1; i < n - 1; i++)
        for (j = 2; j < m - 1; j++)
          A[(t + 1) % 2][i][j][k] = 0.3 * A[t % 2][i][j][k]
              + 0.1 * A[t % 2][i - 1][j][k] + 0.15 * A[t % 2][i + 1][j][k]
              + 0.12 * A[t % 2][i][j - 2][k] + 0.08 * A[t % 2][i][j + 1][k]
              + 0.11 * A[t % 2][i][j][k - 1] + 0.14 * A[t % 2][i][j][k + 1];
#pragma endscop
  marks[0] = (ELEM)t; marks[1] = (ELEM)i; marks[2] = (ELEM)j; marks[3] = (ELEM)k;
}
#else
static void run(int T, int n, int m, ELEM (*A)[n][m], ELEM *marks)
{
  int t = -7, i = -7, j = -7;
#pragma scop
  for (t = 0; t < T; t++)
    for (j = 1; j < m - 1; j++)
      for (i = 1; i < n - 2; i++)
        A[(t + 1) % 2][i][j] = 0.3 * A[t % 2][i][j] + 0.1 * A[t % 2][i - 1][j]
            + 0.15 * A[t % 2][i + 2][j] + 0.2 * A[t % 2][i][j - 1]
            + 0.25 * A[t % 2][i][j + 1];
#pragma endscop
  marks[0] = (ELEM)t; marks[1] = (ELEM)i; marks[2] = (ELEM)j; marks[3] = 0;
}
#endif

int main(int argc, char **argv)
{
#ifdef THREE
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  const long cells = (long)n * m * l;
#else
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  const long cells = (long)n * m;
#endif
  ELEM *buf = (ELEM *)new_planes(cells + 2, sizeof(ELEM));
#ifdef THREE
  run(T, n, m, l, (ELEM (*)[n][m][l])buf, buf + 2 * cells);
#else
  run(T, n, m, (ELEM (*)[n][m])buf, buf + 2 * cells);
#endif
  return write_cells(argv[argc - 1], buf, sizeof(ELEM) * (2 * cells + 4));
}
