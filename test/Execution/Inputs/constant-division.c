/* Float divisions by constants: / 1000 and / 700 become an5dc's exact helpers,
   / 123.456f (for which the helper's sequence is not exact) stays a
   division. Each step shrinks values to at most 1/100 of the largest
   neighbour, so after 20 to 30 steps cells away from the boundary hold
   subnormal values and zeros. Usage: constant-division n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = (A[t % 2][i - 1][j] + A[t % 2][i + 1][j]) / 1000
                             - A[t % 2][i][j - 1] / 700
                             + A[t % 2][i][j + 1] / 123.456f;
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
