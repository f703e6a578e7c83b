/* star3d1r written as Jacobi with a copy-back (B computed from A, then
   copied back into A: one Jacobi step per time iteration); the same
   stencil and main as ../star3d1r.c. Every step reads A's boundary (the % 2
   form reads each plane's own), so the checksums differ from star3d1r.c's;
   B keeps its boundary.
   Usage: star3d1r [n m l [T [out.bin]]]  (defaults 32 32 32 5) */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif

/* The scop/endscop pragmas below mark the region for an5dc; keep gcc and
   clang quiet about them under -Wall. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

static void star3d1r_copy_back(int T, int n, int m, int l, real A[n][m][l], real B[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          B[i][j][k] =
              0.2462f * A[i][j][k]
            + 0.09685f * A[i - 1][j][k]
            + 0.1221f * A[i][j - 1][k]
            + 0.08843f * A[i][j][k - 1]
            + 0.1249f * A[i + 1][j][k]
            + 0.1575f * A[i][j + 1][k]
            + 0.1540f * A[i][j][k + 1];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          A[i][j][k] = B[i][j][k];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = 32, m = 32, l = 32, T = 5;
  const char *out = NULL;

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
  if (argc >= 6)
    out = argv[5];
  if (n < 1 || m < 1 || l < 1 || T < 0) {
    fprintf(stderr, "%s: need n >= 1, m >= 1, l >= 1, T >= 0\n", argv[0]);
    return 1;
  }

  real *buf = (real *)malloc(sizeof(real) * 2 * n * m * l);
  if (buf == NULL) {
    fprintf(stderr, "%s: cannot allocate 2 x %d x %d x %d cells\n", argv[0], n, m, l);
    return 1;
  }
  real (*A)[n][m][l] = (real (*)[n][m][l])buf;

  /* Both planes get deterministic, different values (boundaries included). */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++) {
        A[0][i][j][k] = (real)(((i % 17) * 7 + (j % 17) * 13 + (k % 17) * 19) % 17 / 17.0 + 0.5);
        A[1][i][j][k] = (real)(((i % 11) * 5 + (j % 11) * 3 + (k % 11) * 2) % 11 / 11.0 + 0.25);
      }

  /* T Jacobi steps: T iterations. */
  star3d1r_copy_back(T, n, m, l, A[0], A[1]);

  double sum0 = 0.0, sum1 = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++) {
        sum0 += (double)A[0][i][j][k];
        sum1 += (double)A[1][i][j][k];
      }
  printf("checksum: %.17g %.17g\n", sum0, sum1);

  if (out != NULL) {
    size_t count = (size_t)2 * n * m * l;
    FILE *f = fopen(out, "wb");
    if (f == NULL) {
      fprintf(stderr, "%s: cannot open %s for writing\n", argv[0], out);
      free(buf);
      return 1;
    }
    if (fwrite(buf, sizeof(real), count, f) != count) {
      fprintf(stderr, "%s: cannot write %s\n", argv[0], out);
      fclose(f);
      free(buf);
      return 1;
    }
    if (fclose(f) != 0) {
      fprintf(stderr, "%s: cannot close %s\n", argv[0], out);
      free(buf);
      return 1;
    }
  }

  free(buf);
  return 0;
}
