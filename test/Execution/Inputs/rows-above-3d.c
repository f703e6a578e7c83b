/* Every read lies on rows above the cell along the streaming dimension
   (i - 2 and i - 1), with in-plane diagonals, a constant and a subtracted
   term: the associative kernel's partial sums complete hi_0 = 0 rows after
   the last row they read. Usage: rows-above-3d n m l T out.bin */
#include "common.h"

static void run(int T, int n, int m, int l, double (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 2; i < n; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          A[(t + 1) % 2][i][j][k] = 0.25 * A[t % 2][i - 1][j - 1][k] + 0.25 * A[t % 2][i - 1][j][k + 1]
                                  + 0.2 * A[t % 2][i - 2][j + 1][k - 1] - 0.1 * A[t % 2][i - 1][j][k] + 0.05;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  long cells = (long)n * m * l;
  double *buf = (double *)new_planes(cells, sizeof(double));
  run(T, n, m, l, (void *)buf);
  return write_cells(argv[5], buf, sizeof(double) * 2 * cells);
}
