/* A weighted sum whose second term is a factor times a sum over three rows,
   with diagonal reads (no star kernel): under --fast-math an5dc distributes
   the factor and runs the associative kernel, which adds the terms in
   another order than the C loop. Usage: distributed-factor n m T out.bin
   (-DUSE_DOUBLE for double). */
#include "common.h"

#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif

static void run(int T, int n, int m, real (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.25f * A[t % 2][i][j]
            + 0.15f * (A[t % 2][i - 1][j - 1] + A[t % 2][i - 1][j + 1]
                       + A[t % 2][i][j - 1] + A[t % 2][i + 1][j + 1])
            + (A[t % 2][i - 1][j] - 0.5f * A[t % 2][i + 1][j - 1]) / 5.3f;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  real *buf = (real *)new_planes((long)n * m, sizeof(real));
  run(T, n, m, (void *)buf);
  return write_cells(argv[4], buf, sizeof(real) * 2 * n * m);
}
