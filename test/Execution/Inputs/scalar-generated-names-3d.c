/* 3D star whose scalars are named like locals and parameters of the
   generated kernels and host code (tiles, row, edge, lane, zeros, source,
   steps). Usage: scalar-generated-names-3d n m p T out.bin */
#include "common.h"

static void run(int T, int n, int m, int p, float tiles, float row, float edge,
                float lane, float zeros, float source, int steps,
                float (*A)[n][m][p])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < p - 1; k++)
          A[(t + 1) % 2][i][j][k] =
              tiles * A[t % 2][i - 1][j][k] + row * A[t % 2][i + 1][j][k]
            + edge * A[t % 2][i][j - 1][k] + lane * A[t % 2][i][j + 1][k]
            + zeros * A[t % 2][i][j][k - 1] + source * A[t % 2][i][j][k + 1]
            + A[t % 2][i][j][k] / steps;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), p = atoi(argv[3]), T = atoi(argv[4]);
  float *buf = (float *)new_planes((long)n * m * p, sizeof(float));
  run(T, n, m, p, 0.11f, 0.12f, 0.13f, 0.14f, 0.15f, 0.16f, 4, (void *)buf);
  return write_cells(argv[5], buf, sizeof(float) * 2 * n * m * p);
}
