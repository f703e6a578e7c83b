/* Every read is in the cell's own row (no offset along i): a register ring
   of one row per level. Usage: row-only-3d n m l T out.bin */
#include "common.h"

static void run(int T, int n, int m, int l, float (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 0; i < n; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 2; k++)
          A[(t + 1) % 2][i][j][k] = 0.2f * A[t % 2][i][j][k] + 0.3f * A[t % 2][i][j - 1][k + 2]
                                  + 0.25f * A[t % 2][i][j + 1][k] + 0.25f * A[t % 2][i][j][k - 1];
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
