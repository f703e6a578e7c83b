/* A float division by a constant whose dividends grow a millionfold per
   step: they leave the helper's proved range (|q0| <= 2^80) after about
   four steps and overflow to infinity after seven, so a launch other than
   the first meets the values its fast form may not divide (inf / 3 is inf
   in C, NaN through the remainder sequence).
   Usage: division-late-range n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] =
            (1.0e6f * A[t % 2][i - 1][j] + 1.0e6f * A[t % 2][i][j - 1]
             + 1.0e6f * A[t % 2][i][j] + 1.0e6f * A[t % 2][i][j + 1]
             + 1.0e6f * A[t % 2][i + 1][j]) / 3;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  float *buf = (float *)new_planes((long)n * m, sizeof(float));
  for (long c = 0; c < (long)n * m; c++)
    buf[c] = (float)(c % 7) * 0.125f + 0.5f;
  run(T, n, m, (void *)buf);
  return write_cells(argv[4], buf, sizeof(float) * 2 * n * m);
}
