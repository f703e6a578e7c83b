/* j2d5pt written with its cell update in a function of the program (the
   same update and main as ../j2d5pt.c; an5dc inlines the function).
   Usage: j2d5pt [n m [T [out.bin]]]  (defaults 64 64 10) */
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

/* One cell's update, as codes that factor their stencil write it. */
static inline real j2d5pt_cell(int m, real (*a)[m], int i, int j)
{
  return (5.1f * a[i - 1][j]
        + 12.1f * a[i][j - 1]
        + 15.0f * a[i][j]
        + 12.2f * a[i][j + 1]
        + 5.2f * a[i + 1][j]) / 118;
}

static void j2d5pt(int T, int n, int m, real (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = j2d5pt_cell(m, A[t % 2], i, j);
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = 64, m = 64, T = 10;
  const char *out = NULL;

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
  if (argc >= 5)
    out = argv[4];
  if (n < 1 || m < 1 || T < 0) {
    fprintf(stderr, "%s: need n >= 1, m >= 1, T >= 0\n", argv[0]);
    return 1;
  }

  real *buf = (real *)malloc(sizeof(real) * 2 * n * m);
  if (buf == NULL) {
    fprintf(stderr, "%s: cannot allocate 2 x %d x %d cells\n", argv[0], n, m);
    return 1;
  }
  real (*A)[n][m] = (real (*)[n][m])buf;

  /* Both planes get deterministic, different values (boundaries included). */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      A[0][i][j] = (real)(((i % 17) * 7 + (j % 17) * 13) % 17 / 17.0 + 0.5);
      A[1][i][j] = (real)(((i % 11) * 5 + (j % 11) * 3) % 11 / 11.0 + 0.25);
    }

  j2d5pt(T, n, m, A);

  double sum0 = 0.0, sum1 = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      sum0 += (double)A[0][i][j];
      sum1 += (double)A[1][i][j];
    }
  printf("checksum: %.17g %.17g\n", sum0, sum1);

  if (out != NULL) {
    size_t count = (size_t)2 * n * m;
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
