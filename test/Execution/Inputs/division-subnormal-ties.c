/* Float divisions by whole constants whose quotients become subnormal: a
   cell keeps about 1/59 of its neighbours, so after some 25 steps, cells
   25 rows or more from the fixed first row hold subnormal values, and some
   quotients lie exactly halfway between two subnormals (x / 118 with x an
   odd multiple of 59 * 2^-149; / 100: of 50 * 2^-149), where IEEE rounding
   takes the even one. Usage: division-subnormal-ties n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = (A[t % 2][i - 1][j] + A[t % 2][i][j + 1]) / 118
                             - A[t % 2][i][j - 1] / 100;
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
