/* The 3D wave equation, second order in time: one array of three planes in
   turn, A[(t + 2) % 3] from A[(t + 1) % 3] (a 7-point Laplacian) and
   A[t % 3] at the cell; 11 FLOP per cell.
   Usage: wave3d [n m l [T [out.bin]]]  (defaults 32 32 32 5); prints a
   checksum of the three planes; out.bin receives them (raw real). */
#include <stdio.h>
#include <stdlib.h>

#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

static void wave3d(int T, int n, int m, int l, real c, real (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          A[(t + 2) % 3][i][j][k] = 2 * A[(t + 1) % 3][i][j][k] - A[t % 3][i][j][k]
              + c * (A[(t + 1) % 3][i - 1][j][k] + A[(t + 1) % 3][i + 1][j][k]
                     + A[(t + 1) % 3][i][j - 1][k] + A[(t + 1) % 3][i][j + 1][k]
                     + A[(t + 1) % 3][i][j][k - 1] + A[(t + 1) % 3][i][j][k + 1]
                     - 6 * A[(t + 1) % 3][i][j][k]);
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = 32, m = 32, l = 32, T = 5;
  if (argc != 1 && argc != 4 && argc != 5 && argc != 6) {
    fprintf(stderr, "usage: %s [n m l [T [out.bin]]]\n", argv[0]);
    return 1;
  }
  if (argc >= 4) {
    n = atoi(argv[1]);
    m = atoi(argv[2]);
    l = atoi(argv[3]);
  }
  if (argc >= 5)
    T = atoi(argv[4]);
  if (n < 1 || m < 1 || l < 1 || T < 0)
    return 1;
  size_t cells = (size_t)n * m * l;
  real *buf = (real *)malloc(sizeof(real) * 3 * cells);
  if (buf == NULL) {
    fprintf(stderr, "%s: out of memory\n", argv[0]);
    return 1;
  }
  real (*A)[n][m][l] = (real (*)[n][m][l])buf;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++) {
        double x = (double)i / n - 0.5, y = (double)j / m - 0.5,
               z = (double)k / l - 0.5;
        double bump = 1.0 / (1.0 + 40.0 * (x * x + y * y + z * z));
        A[0][i][j][k] = A[1][i][j][k] = (real)bump;
        A[2][i][j][k] = (real)((i * 7 + j * 13 + k * 5) % 17 / 17.0);
      }
  wave3d(T, n, m, l, (real)0.1, A);
  double sum[3] = {0.0, 0.0, 0.0};
  for (int p = 0; p < 3; p++)
    for (size_t c = 0; c < cells; c++)
      sum[p] += (double)buf[p * cells + c];
  printf("checksum: %.17g %.17g %.17g\n", sum[0], sum[1], sum[2]);
  if (argc >= 6) {
    FILE *f = fopen(argv[5], "wb");
    if (f == NULL || fwrite(buf, sizeof(real), 3 * cells, f) != 3 * cells || fclose(f) != 0) {
      fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[5]);
      return 1;
    }
  }
  free(buf);
  return 0;
}
