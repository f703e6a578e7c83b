/* A 3D star with selects in its terms ('c > 0.5f ? 0.3f * c : 0.15f * c',
   a clamp of the cells above and below, one against a double): every term
   reads one plane along i, so the associative kernel may compute the sum
   as partial sums (-DMIXED: a term reads two planes, which it may not). Usage: conditionals-3d n m l T out.bin */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

#define C A[t % 2][i][j][k]
static void run(int T, int n, int m, int l, ELEM (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          A[(t + 1) % 2][i][j][k] =
#ifdef MIXED
              0.01f * (A[t % 2][i - 1][j][k] > C ? A[t % 2][i - 1][j][k] : C) +
#endif
              0.11f * (A[t % 2][i - 1][j][k] > 0.5f ? A[t % 2][i - 1][j][k] : 0.5f) +
              0.12f * A[t % 2][i][j - 1][k] + 0.13f * A[t % 2][i][j + 1][k] +
              (C > 0.5f ? 0.3f * C : 0.15f * C) +
              0.14f * A[t % 2][i][j][k - 1] + 0.1f * A[t % 2][i][j][k + 1] +
              0.09f * (A[t % 2][i + 1][j][k] < 0.25 ? 0.25f : A[t % 2][i + 1][j][k]);
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  ELEM *buf = (ELEM *)new_planes((long)n * m * l, sizeof(ELEM));
  run(T, n, m, l, (void *)buf);
  return write_cells(argv[5], buf, sizeof(ELEM) * 2 * (long)n * m * l);
}
