/* star3d4r: 3D star stencil of radius 4 (AN5D Table 3), 49 FLOP per cell.
   Usage: star3d4r [n m l [T [out.bin]]]  (defaults 32 32 32 5) */
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

static void star3d4r(int T, int n, int m, int l, real (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 4; i < n - 4; i++)
      for (int j = 4; j < m - 4; j++)
        for (int k = 4; k < l - 4; k++)
          A[(t + 1) % 2][i][j][k] =
              0.07835f * A[t % 2][i][j][k]
            + 0.02882f * A[t % 2][i - 4][j][k]
            + 0.03397f * A[t % 2][i][j - 4][k]
            + 0.05052f * A[t % 2][i][j][k - 4]
            + 0.03882f * A[t % 2][i - 3][j][k]
            + 0.04488f * A[t % 2][i][j - 3][k]
            + 0.04596f * A[t % 2][i][j][k - 3]
            + 0.03660f * A[t % 2][i - 2][j][k]
            + 0.03751f * A[t % 2][i][j - 2][k]
            + 0.04342f * A[t % 2][i][j][k - 2]
            + 0.03412f * A[t % 2][i - 1][j][k]
            + 0.04529f * A[t % 2][i][j - 1][k]
            + 0.04240f * A[t % 2][i][j][k - 1]
            + 0.02636f * A[t % 2][i + 1][j][k]
            + 0.04979f * A[t % 2][i][j + 1][k]
            + 0.02898f * A[t % 2][i][j][k + 1]
            + 0.03688f * A[t % 2][i + 2][j][k]
            + 0.03906f * A[t % 2][i][j + 2][k]
            + 0.03686f * A[t % 2][i][j][k + 2]
            + 0.03474f * A[t % 2][i + 3][j][k]
            + 0.04296f * A[t % 2][i][j + 3][k]
            + 0.03215f * A[t % 2][i][j][k + 3]
            + 0.03217f * A[t % 2][i + 4][j][k]
            + 0.02730f * A[t % 2][i][j + 4][k]
            + 0.04207f * A[t % 2][i][j][k + 4];
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

  star3d4r(T, n, m, l, A);

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
