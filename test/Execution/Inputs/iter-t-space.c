/* 2D star whose time loop is s and whose streamed iterator is t: the
   generated code's time bounds are t_first and t_last.
   Usage: iter-t-space n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int s = 0; s < T; s++)
    for (int t = 1; t < n - 1; t++)
      for (int j = 1; j < m - 1; j++)
        A[(s + 1) % 2][t][j] = 0.2f * (A[s % 2][t - 1][j] + A[s % 2][t + 1][j]
                             + A[s % 2][t][j - 1] + A[s % 2][t][j + 1]) + 0.15f * A[s % 2][t][j];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  float *buf = (float *)new_planes((long)n * m, sizeof(float));
  run(T, n, m, (void *)buf);
  return write_cells(argv[4], buf, sizeof(float) * 2 * n * m);
}
