/* Float cells summed in float, the sum scaled by a double literal (C adds
   the terms in float, then multiplies in double and rounds to float), over
   rows i - 1 .. i + 1: what the associative kernel's partial sums must
   reproduce bit for bit.
   Usage: assoc-double-factor n m T out.bin (both planes) */
#include "common.h"

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.2 * (A[t % 2][i - 1][j] + A[t % 2][i][j - 1]
                               + A[t % 2][i][j] + A[t % 2][i][j + 1]
                               + A[t % 2][i + 1][j]);
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  float *buf = (float *)new_planes((long)n * m, sizeof(float));
  run(T, n, m, (float (*)[n][m])buf);
  return write_cells(argv[4], buf, sizeof(float) * 2 * (long)n * m);
}
