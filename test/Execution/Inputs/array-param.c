/* The array as a function parameter with constant extents; iterators
   declared before the loops, their final values stored after the nest.
   Usage: array-param T out.bin */
#include "common.h"

#define N 21
#define M 26

static void run(int T, float A[2][N][M])
{
  int t = -7, i = -7, j = -7;
#pragma scop
  for (t = 0; t < T; t++)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        A[(t + 1) % 2][i][j] = 0.25f * (A[t % 2][i - 1][j + 1] + A[t % 2][i + 1][j - 1])
                             + 0.5f * A[t % 2][i][j];
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
