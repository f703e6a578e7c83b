/* box2d4r: 2D box stencil of radius 4 (AN5D Table 3), 161 FLOP per cell.
   Usage: box2d4r [n m [T [out.bin]]]  (defaults 64 64 10) */
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

static void box2d4r(int T, int n, int m, real (*A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 4; i < n - 4; i++)
      for (int j = 4; j < m - 4; j++)
        A[(t + 1) % 2][i][j] =
            0.01255f * A[t % 2][i - 4][j - 4]
          + 0.01618f * A[t % 2][i - 4][j - 3]
          + 0.01107f * A[t % 2][i - 4][j - 2]
          + 0.01411f * A[t % 2][i - 4][j - 1]
          + 0.01590f * A[t % 2][i - 4][j]
          + 0.008676f * A[t % 2][i - 4][j + 1]
          + 0.01372f * A[t % 2][i - 4][j + 2]
          + 0.01509f * A[t % 2][i - 4][j + 3]
          + 0.01548f * A[t % 2][i - 4][j + 4]
          + 0.01314f * A[t % 2][i - 3][j - 4]
          + 0.009191f * A[t % 2][i - 3][j - 3]
          + 0.01111f * A[t % 2][i - 3][j - 2]
          + 0.008354f * A[t % 2][i - 3][j - 1]
          + 0.01479f * A[t % 2][i - 3][j]
          + 0.01097f * A[t % 2][i - 3][j + 1]
          + 0.01010f * A[t % 2][i - 3][j + 2]
          + 0.009473f * A[t % 2][i - 3][j + 3]
          + 0.008596f * A[t % 2][i - 3][j + 4]
          + 0.009444f * A[t % 2][i - 2][j - 4]
          + 0.009115f * A[t % 2][i - 2][j - 3]
          + 0.01016f * A[t % 2][i - 2][j - 2]
          + 0.01115f * A[t % 2][i - 2][j - 1]
          + 0.01542f * A[t % 2][i - 2][j]
          + 0.009479f * A[t % 2][i - 2][j + 1]
          + 0.01011f * A[t % 2][i - 2][j + 2]
          + 0.01031f * A[t % 2][i - 2][j + 3]
          + 0.01015f * A[t % 2][i - 2][j + 4]
          + 0.01511f * A[t % 2][i - 1][j - 4]
          + 0.01189f * A[t % 2][i - 1][j - 3]
          + 0.01197f * A[t % 2][i - 1][j - 2]
          + 0.01108f * A[t % 2][i - 1][j - 1]
          + 0.01570f * A[t % 2][i - 1][j]
          + 0.01188f * A[t % 2][i - 1][j + 1]
          + 0.01204f * A[t % 2][i - 1][j + 2]
          + 0.01292f * A[t % 2][i - 1][j + 3]
          + 0.01382f * A[t % 2][i - 1][j + 4]
          + 0.01371f * A[t % 2][i][j - 4]
          + 0.01578f * A[t % 2][i][j - 3]
          + 0.01302f * A[t % 2][i][j - 2]
          + 0.01169f * A[t % 2][i][j - 1]
          + 0.02478f * A[t % 2][i][j]
          + 0.01121f * A[t % 2][i][j + 1]
          + 0.01273f * A[t % 2][i][j + 2]
          + 0.01025f * A[t % 2][i][j + 3]
          + 0.009448f * A[t % 2][i][j + 4]
          + 0.008752f * A[t % 2][i + 1][j - 4]
          + 0.01239f * A[t % 2][i + 1][j - 3]
          + 0.01089f * A[t % 2][i + 1][j - 2]
          + 0.01462f * A[t % 2][i + 1][j - 1]
          + 0.01227f * A[t % 2][i + 1][j]
          + 0.01208f * A[t % 2][i + 1][j + 1]
          + 0.01270f * A[t % 2][i + 1][j + 2]
          + 0.01576f * A[t % 2][i + 1][j + 3]
          + 0.01561f * A[t % 2][i + 1][j + 4]
          + 0.01429f * A[t % 2][i + 2][j - 4]
          + 0.009099f * A[t % 2][i + 2][j - 3]
          + 0.01467f * A[t % 2][i + 2][j - 2]
          + 0.01045f * A[t % 2][i + 2][j - 1]
          + 0.008964f * A[t % 2][i + 2][j]
          + 0.008698f * A[t % 2][i + 2][j + 1]
          + 0.009560f * A[t % 2][i + 2][j + 2]
          + 0.01183f * A[t % 2][i + 2][j + 3]
          + 0.01349f * A[t % 2][i + 2][j + 4]
          + 0.01028f * A[t % 2][i + 3][j - 4]
          + 0.01569f * A[t % 2][i + 3][j - 3]
          + 0.01254f * A[t % 2][i + 3][j - 2]
          + 0.01389f * A[t % 2][i + 3][j - 1]
          + 0.009627f * A[t % 2][i + 3][j]
          + 0.01456f * A[t % 2][i + 3][j + 1]
          + 0.01086f * A[t % 2][i + 3][j + 2]
          + 0.01166f * A[t % 2][i + 3][j + 3]
          + 0.008445f * A[t % 2][i + 3][j + 4]
          + 0.01343f * A[t % 2][i + 4][j - 4]
          + 0.01400f * A[t % 2][i + 4][j - 3]
          + 0.01283f * A[t % 2][i + 4][j - 2]
          + 0.009446f * A[t % 2][i + 4][j - 1]
          + 0.01142f * A[t % 2][i + 4][j]
          + 0.009958f * A[t % 2][i + 4][j + 1]
          + 0.01522f * A[t % 2][i + 4][j + 2]
          + 0.01099f * A[t % 2][i + 4][j + 3]
          + 0.01611f * A[t % 2][i + 4][j + 4];
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

  box2d4r(T, n, m, A);

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
