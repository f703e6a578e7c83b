/* Asymmetric reach: i [-2, +1], j [-1, +3], with scalars of three types.
   Usage: asymmetric2d n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, float alpha, double beta, int div, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 2; i < n - 1; i++)
      for (int j = 1; j < m - 3; j++)
        A[(t + 1) % 2][i][j] = alpha * A[t % 2][i - 2][j] + beta * A[t % 2][i][j + 3]
                             + 0.25f * A[t % 2][i + 1][j - 1] + A[t % 2][i][j] / div
                             + 0.125f * A[t % 2][i - 1][j + 1];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  float *buf = (float *)new_planes((long)n * m, sizeof(float));
  run(T, n, m, 0.3f, 0.2, 4, (void *)buf);
  return write_cells(argv[4], buf, sizeof(float) * 2 * n * m);
}
