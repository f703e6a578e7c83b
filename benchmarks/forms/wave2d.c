/* The 2D wave equation, second order in time: one array of three planes in
   turn, A[(t + 2) % 3] from A[(t + 1) % 3] (a 5-point Laplacian) and
   A[t % 3] at the cell; 9 FLOP per cell.
   Usage: wave2d [n m [T [out.bin]]]  (defaults 64 64 10); prints a checksum
   of the three planes; out.bin receives them (raw real). */
#include <stdio.h>
#include <stdlib.h>

#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

static void wave2d(int T, int n, int m, real c, real (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 2) % 3][i][j] = 2 * A[(t + 1) % 3][i][j] - A[t % 3][i][j]
            + c * (A[(t + 1) % 3][i - 1][j] + A[(t + 1) % 3][i + 1][j]
                   + A[(t + 1) % 3][i][j - 1] + A[(t + 1) % 3][i][j + 1]
                   - 4 * A[(t + 1) % 3][i][j]);
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = 64, m = 64, T = 10;
  if (argc != 1 && argc != 3 && argc != 4 && argc != 5) {
    fprintf(stderr, "usage: %s [n m [T [out.bin]]]\n", argv[0]);
    return 1;
  }
  if (argc >= 3) {
    n = atoi(argv[1]);
    m = atoi(argv[2]);
  }
  if (argc >= 4)
    T = atoi(argv[3]);
  if (n < 1 || m < 1 || T < 0)
    return 1;
  size_t cells = (size_t)n * m;
  real *buf = (real *)malloc(sizeof(real) * 3 * cells);
  if (buf == NULL) {
    fprintf(stderr, "%s: out of memory\n", argv[0]);
    return 1;
  }
  real (*A)[n][m] = (real (*)[n][m])buf;
  /* A smooth bump, at rest: both starting levels alike; the third plane
     (overwritten at the first step) distinct. */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double x = (double)i / n - 0.5, y = (double)j / m - 0.5;
      double bump = 1.0 / (1.0 + 40.0 * (x * x + y * y));
      A[0][i][j] = A[1][i][j] = (real)bump;
      A[2][i][j] = (real)((i * 7 + j * 13) % 17 / 17.0);
    }
  wave2d(T, n, m, (real)0.2, A);
  double sum[3] = {0.0, 0.0, 0.0};
  for (int p = 0; p < 3; p++)
    for (size_t c = 0; c < cells; c++)
      sum[p] += (double)buf[p * cells + c];
  printf("checksum: %.17g %.17g %.17g\n", sum[0], sum[1], sum[2]);
  if (argc >= 5) {
    FILE *f = fopen(argv[4], "wb");
    if (f == NULL || fwrite(buf, sizeof(real), 3 * cells, f) != 3 * cells || fclose(f) != 0) {
      fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[4]);
      return 1;
    }
  }
  free(buf);
  return 0;
}
