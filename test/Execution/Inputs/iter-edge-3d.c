/* 3D star whose streamed iterator is edge, the name of a local of the
   edge-tile kernels. Usage: iter-edge-3d n m p T out.bin */
#include "common.h"

static void run(int T, int n, int m, int p, float (*A)[n][m][p])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int edge = 1; edge < n - 1; edge++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < p - 1; k++)
          A[(t + 1) % 2][edge][j][k] =
              0.1f * (A[t % 2][edge - 1][j][k] + A[t % 2][edge + 1][j][k]
                    + A[t % 2][edge][j - 1][k] + A[t % 2][edge][j + 1][k]
                    + A[t % 2][edge][j][k - 1] + A[t % 2][edge][j][k + 1])
            + 0.35f * A[t % 2][edge][j][k];
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
