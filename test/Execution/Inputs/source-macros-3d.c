/* 3D star in a source that defines macros named like identifiers of the
   generated code before the scop, one of them used in the scop (plane).
   Usage: source-macros-3d n m p T out.bin */
#include "common.h"

#define row 3
#define value 2
#define steps (row + value)
#define plane 0.1f

static void run(int T, int n, int m, int p, float (*A)[n][m][p])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < p - 1; k++)
          A[(t + 1) % 2][i][j][k] =
              plane * (A[t % 2][i - 1][j][k] + A[t % 2][i + 1][j][k]
                     + A[t % 2][i][j - 1][k] + A[t % 2][i][j + 1][k]
                     + A[t % 2][i][j][k - 1] + A[t % 2][i][j][k + 1])
            + A[t % 2][i][j][k] / steps;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), p = atoi(argv[3]), T = atoi(argv[4]);
  float *buf = (float *)new_planes((long)n * m * p, sizeof(float));
  run(T, n, m, p, (void *)buf);
  return write_cells(argv[5], buf, sizeof(float) * 2 * n * m * p);
}
