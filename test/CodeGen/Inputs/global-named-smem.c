/* A program whose global is named like the kernels' shared array once was
   (the random tester's seed 2700, programs 386 and 739, on nvcc). */
#include <stdlib.h>

double smem = 0.06;

static void star3d(int T, int n, int m, int l, float (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          A[(t + 1) % 2][i][j][k] = 0.25f * A[t % 2][i][j][k]
              + 0.125f * (A[t % 2][i - 1][j][k] + A[t % 2][i + 1][j][k])
              + 0.125f * (A[t % 2][i][j - 1][k] + A[t % 2][i][j + 1][k])
              + smem * (A[t % 2][i][j][k - 1] + A[t % 2][i][j][k + 1]);
#pragma endscop
}

int main(void)
{
  int n = 16, m = 16, l = 16;
  float (*A)[n][m][l] = calloc(2, sizeof *A);
  star3d(4, n, m, l, A);
  free(A);
  return 0;
}
