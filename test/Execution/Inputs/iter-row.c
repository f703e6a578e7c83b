/* 2D star whose innermost iterator is row, the name of kernel locals
   (the streamed row, the edge kernels' row of a cell).
   Usage: iter-row n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int s = 0; s < T; s++)
    for (int i = 1; i < n - 1; i++)
      for (int row = 1; row < m - 1; row++)
        A[(s + 1) % 2][i][row] = 0.2f * (A[s % 2][i - 1][row] + A[s % 2][i + 1][row]
                               + A[s % 2][i][row - 1] + A[s % 2][i][row + 1]) + 0.15f * A[s % 2][i][row];
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
