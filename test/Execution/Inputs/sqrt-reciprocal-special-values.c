/* Float square roots, reciprocals and reciprocals of square roots (an5dc's
   refined helpers) at the values their range tests leave out: plane 0
   starts with zeros of both signs, subnormals, values just inside and just
   outside the ranges ([2^-102, FLT_MAX] for sqrtf and 1.0f / sqrtf,
   2^-126 <= |x| < 2^126 for 1.0f / x), the largest floats, negative
   values, infinities and NaNs among ordinary values, one per cell in a
   cycle of 19 along j, so that neighbouring lanes mix values inside and
   outside the ranges. Usage: sqrt-reciprocal-special-values n m T out.bin */
#include "common.h"

static const float special[19] = {
    0.0f, -0.0f, 1e-40f, -1.4e-45f, 1.17549435e-38f, 0x1p-102f,
    0x1.fffffep-103f, 0x1p126f, 0x1.fffffep125f, -0x1p126f, 3.0e38f,
    -3.4028235e38f, INFINITY, -INFINITY, NAN, 1.5f, -7.25f, 2.0f, 0.3f};

static void run(int T, int n, int m, float (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = sqrtf(A[t % 2][i][j - 1]) + 1.0f / A[t % 2][i][j + 1]
                             + 0.5f * A[t % 2][i - 1][j] + 1.0f / sqrtf(A[t % 2][i + 1][j]);
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  float *buf = (float *)new_planes((long)n * m, sizeof(float));
  for (long c = 0; c < (long)n * m; c++)
    buf[c] = special[c % m % 19];
  run(T, n, m, (void *)buf);
  return write_cells(argv[4], buf, sizeof(float) * 2 * n * m);
}
