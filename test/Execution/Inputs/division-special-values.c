/* Float divisions by constants whose helpers (an5dc's exact sequence) meet
   the values their proof leaves out: plane 0 starts with zeros of both
   signs, subnormals, values whose quotients lie just inside and just outside
   [2^-80, 2^80], the largest floats, infinities and NaNs among ordinary
   values, one per cell in a cycle of 17 along j, so that neighbouring lanes
   mix values inside and outside the range.
   Usage: division-special-values n m T out.bin */
#include "common.h"

static const float special[17] = {
    0.0f, -0.0f, 1e-40f, -1.4e-45f, 1.17549435e-38f, 3e-30f, 1e-20f,
    0x1p-80f * 118.0f, 0x1p80f * 118.0f, 0x1.000002p80f * 118.0f, 3.0e38f,
    -3.4028235e38f, INFINITY, -INFINITY, NAN, 1.5f, -7.25f};

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j - 1] / 118 + A[t % 2][i][j + 1] / 3
                             + A[t % 2][i - 1][j] / -0.1f;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  float *buf = (float *)new_planes((long)n * m, sizeof(float));
  for (long c = 0; c < (long)n * m; c++)
    buf[c] = special[c % m % 17];
  run(T, n, m, (void *)buf);
  return write_cells(argv[4], buf, sizeof(float) * 2 * n * m);
}
