/* Writes A[t % 2] from A[(t + 1) % 2], time loop from t0 (>= 0) to t0 + T.
   Usage: swapped-parity n m t0 T out.bin */
#include "common.h"

static void run(int t0, int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = t0; t < t0 + T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[t % 2][i][j] = 0.2f * (A[(t + 1) % 2][i - 1][j] + A[(t + 1) % 2][i + 1][j]
                       + A[(t + 1) % 2][i][j - 1] + A[(t + 1) % 2][i][j + 1] + A[(t + 1) % 2][i][j]);
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), t0 = atoi(argv[3]), T = atoi(argv[4]);
  float *buf = (float *)new_planes((long)n * m, sizeof(float));
  run(t0, T, n, m, (void *)buf);
  return write_cells(argv[5], buf, sizeof(float) * 2 * n * m);
}
