/* A 3D star of reach 2 whose interior leaves wider boundaries than the
   reach: 4 columns before it and 3 after it along j and k (2 and 5 along i).
   Usage: wide-boundary-3d n m l T out.bin */
#include "common.h"

static void run(int T, int n, int m, int l, float (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 2; i < n - 5; i++)
      for (int j = 4; j < m - 3; j++)
        for (int k = 4; k < l - 3; k++)
          A[(t + 1) % 2][i][j][k] = 0.2f * A[t % 2][i][j][k]
              + 0.11f * A[t % 2][i - 2][j][k] + 0.09f * A[t % 2][i + 2][j][k]
              + 0.1f * A[t % 2][i][j - 2][k] + 0.12f * A[t % 2][i][j + 2][k]
              + 0.1f * A[t % 2][i][j][k - 1] + 0.08f * A[t % 2][i][j][k + 2]
              + 0.1f * A[t % 2][i][j - 1][k] + 0.1f * A[t % 2][i][j][k + 1];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  long cells = (long)n * m * l;
  float *buf = (float *)new_planes(cells, sizeof(float));
  run(T, n, m, l, (void *)buf);
  return write_cells(argv[5], buf, sizeof(float) * 2 * cells);
}
