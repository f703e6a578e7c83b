/* A fixed-size global array with three planes (only two are used) and
   constant loop bounds. Usage: fixed-global T out.bin */
#include "common.h"

#define N 23
#define M 29
static float A[3][N][M];

static void run(int T)
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 2; i++)
      for (int j = 2; j < M - 1; j++)
        A[(t + 1) & 1][i][j] = 0.3f * A[t & 1][i - 1][j] + 0.2f * A[t & 1][i + 2][j]
                             + 0.25f * A[t & 1][i][j - 2] + 0.24f * A[t & 1][i][j + 1];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 3)
    return 2;
  for (int p = 0; p < 3; p++)
    for (long c = 0; c < (long)N * M; c++)
      (&A[p][0][0])[c] = (float)initial_value(p % 2, c + p);
  run(atoi(argv[1]));
  return write_cells(argv[2], A, sizeof A);
}
