/* Double divisions by constants: / 118, / 3 and / -0.1 become an5dc's exact
   double helpers (Markstein's sequence), / 49 (whose reciprocal is not
   accurate enough for the proof) stays a division. Plane 0 starts with
   zeros of both signs, subnormals, values whose quotients lie just inside
   and just outside [2^-800, 2^800], the largest doubles, infinities and
   NaNs among ordinary values, one per cell in a cycle of 17 along j, so
   that neighbouring lanes mix values inside and outside the range.
   Usage: double-division-special-values n m T out.bin */
#include "common.h"

#include <float.h>

static const double special[17] = {
    0.0, -0.0, 1e-310, -4.9e-324, DBL_MIN, 3e-250, 1e-20,
    0x1p-800 * 118.0, 0x1p800 * 118.0, 0x1.0000000000001p800 * 118.0,
    1.7e308, -DBL_MAX, INFINITY, -INFINITY, NAN, 1.5, -7.25};

static void run(int T, int n, int m, double (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j - 1] / 118 + A[t % 2][i][j + 1] / 3.0
                             + A[t % 2][i - 1][j] / -0.1 - A[t % 2][i + 1][j] / 49;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  double *buf = (double *)new_planes((long)n * m, sizeof(double));
  for (long c = 0; c < (long)n * m; c++)
    buf[c] = special[c % m % 17];
  run(T, n, m, (void *)buf);
  return write_cells(argv[4], buf, sizeof(double) * 2 * n * m);
}
