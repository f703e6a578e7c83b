/* A fixed-size local (static) 3D array, the size from macros.
   Usage: fixed-local-3d T out.bin */
#include "common.h"

#define N 11
#define M 12
#define L 13

int main(int argc, char **argv)
{
  static double A[2][N][M][L];
  if (argc != 3)
    return 2;
  int T = atoi(argv[1]);
  for (int p = 0; p < 2; p++)
    for (long c = 0; c < (long)N * M * L; c++)
      (&A[p][0][0][0])[c] = initial_value(p, c);
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < M - 1; j++)
        for (int k = 1; k < L - 1; k++)
          A[(t + 1) % 2][i][j][k] = 0.4 * A[t % 2][i][j][k] + 0.1 * (A[t % 2][i - 1][j][k] + A[t % 2][i + 1][j][k]
                                  + A[t % 2][i][j - 1][k] + A[t % 2][i][j + 1][k] + A[t % 2][i][j][k - 1] + A[t % 2][i][j][k + 1]);
#pragma endscop
  return write_cells(argv[2], A, sizeof A);
}
