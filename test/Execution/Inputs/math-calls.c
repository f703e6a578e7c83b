/* Math calls whose C arithmetic differs from C++ overloads: sqrt and exp of
   float arguments compute in double in C. Usage: math-calls n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.3f * sqrt(fabsf(A[t % 2][i - 1][j]) + 1e-3f)
                             + 0.2f * exp(-A[t % 2][i][j + 1] * A[t % 2][i][j + 1])
                             + fmax(A[t % 2][i][j - 1], A[t % 2][i + 1][j]) * 0.4f
                             - -A[t % 2][i][j] * 0.05f;
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
