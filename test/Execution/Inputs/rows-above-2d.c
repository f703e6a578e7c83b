/* Every read lies on rows above the cell along the streaming dimension
   (offsets i - 2 and i - 1 only), with diagonal reads: the associative
   kernel's partial sums. Usage: rows-above-2d n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 2; i < n; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.3f * A[t % 2][i - 2][j + 1] + 0.5f * A[t % 2][i - 1][j - 1] + 0.2f * A[t % 2][i - 1][j];
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
