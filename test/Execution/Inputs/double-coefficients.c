/* Literals a double update uses: double ones, float ones that double
   arithmetic converts, a float product computed in float before it is
   converted, signs and parentheses, a constant term, and 0.25, which an
   instruction holds as an immediate. Usage: double-coefficients n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, double (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.1 * A[t % 2][i - 1][j]
                             + 0.3133f * A[t % 2][i][j]
                             - (0.7f * 0.3f) * A[t % 2][i][j + 1]
                             + -(0.2) * A[t % 2][i + 1][j]
                             + 0.25 * A[t % 2][i][j - 1]
                             + 1.0e-3;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  double *buf = (double *)new_planes((long)n * m, sizeof(double));
  run(T, n, m, (void *)buf);
  return write_cells(argv[4], buf, sizeof(double) * 2 * n * m);
}
