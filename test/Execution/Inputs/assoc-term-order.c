/* A linear update whose terms C adds out of row order (row i + 1 first, then
   i - 1, then i) and with a constant term after a read: the associative
   kernel's partial sums would add them in another order, so an5dc keeps the
   exact kernels unless --fast-math allows reassociation.
   Usage: assoc-term-order n m T out.bin (both planes) */
#include "common.h"

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.31f * A[t % 2][i + 1][j] + 0.17f * A[t % 2][i - 1][j - 1]
                             + 0.43f * A[t % 2][i][j + 1] + 0.125f
                             + 0.09f * A[t % 2][i + 1][j - 1];
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
