/* Iterators declared before the loops, their loop headers spelled so that
   the iterator is not the first word after '(': a comment, a macro, a
   parenthesised name. The final values are stored after the nest.
   Usage: iterator-header-spellings T out.bin */
#include "common.h"

#define N 19
#define M 23
#define ROW i

static void run(int T, float A[2][N][M])
{
  int t = -7, i = -7, j = -7;
#pragma scop
  for (/* every step */ t = 0; t < T; t++)
    for (ROW = 1; ROW < N - 1; ROW++)
      for ((j) = 1; j < M - 1; j++)
        A[(t + 1) % 2][i][j] = 0.25f * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j])
                             + 0.5f * A[t % 2][i][j - 1];
#pragma endscop
  /* The C loops leave the iterators at known values; keep them in corners. */
  A[0][0][0] = (float)t;
  A[0][0][M - 1] = (float)i;
  A[1][N - 1][0] = (float)j;
}

int main(int argc, char **argv)
{
  static float A[2][N][M];
  if (argc != 3)
    return 2;
  for (int p = 0; p < 2; p++)
    for (long c = 0; c < (long)N * M; c++)
      (&A[p][0][0])[c] = (float)initial_value(p, c);
  run(atoi(argv[1]), A);
  return write_cells(argv[2], A, sizeof A);
}
