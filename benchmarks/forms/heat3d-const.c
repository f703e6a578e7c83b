/* The 3D heat equation of heat3d-kappa.c with one constant conductivity
   (the baseline of the variable-coefficient form: the same operations).
   Usage: heat3d-const [n m l [T [out.bin]]]  (defaults 32 32 32 5); prints a
   checksum of both planes; out.bin receives both planes (raw real). */
#include <stdio.h>
#include <stdlib.h>

#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

static void heat3d(int T, int n, int m, int l, real (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          A[(t + 1) % 2][i][j][k] = A[t % 2][i][j][k] + 0.1f *
              (A[t % 2][i - 1][j][k] + A[t % 2][i + 1][j][k] + A[t % 2][i][j - 1][k]
             + A[t % 2][i][j + 1][k] + A[t % 2][i][j][k - 1] + A[t % 2][i][j][k + 1]
             - 6.0f * A[t % 2][i][j][k]);
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
  real *buf = (real *)malloc(sizeof(real) * 2 * cells);
  if (buf == NULL) {
    fprintf(stderr, "%s: out of memory\n", argv[0]);
    return 1;
  }
  real (*A)[n][m][l] = (real (*)[n][m][l])buf;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++) {
        A[0][i][j][k] = (real)(((i % 17) * 7 + (j % 17) * 13 + (k % 17) * 19) % 17 / 17.0 + 0.5);
        A[1][i][j][k] = (real)(((i % 11) * 5 + (j % 11) * 3 + (k % 11) * 2) % 11 / 11.0 + 0.25);
      }
  heat3d(T, n, m, l, A);
  double sum0 = 0.0, sum1 = 0.0;
  for (size_t c = 0; c < cells; c++) {
    sum0 += (double)buf[c];
    sum1 += (double)buf[cells + c];
  }
  printf("checksum: %.17g %.17g\n", sum0, sum1);
  if (argc >= 6) {
    FILE *f = fopen(argv[5], "wb");
    if (f == NULL || fwrite(buf, sizeof(real), 2 * cells, f) != 2 * cells || fclose(f) != 0) {
      fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[5]);
      return 1;
    }
  }
  free(buf);
  return 0;
}
