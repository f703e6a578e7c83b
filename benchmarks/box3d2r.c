/* box3d2r: 3D box stencil of radius 2 (AN5D Table 3), 249 FLOP per cell.
   Usage: box3d2r [n m l [T [out.bin]]]  (defaults 32 32 32 5) */
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

static void box3d2r(int T, int n, int m, int l, real (*A)[n][m][l])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 2; i < n - 2; i++)
      for (int j = 2; j < m - 2; j++)
        for (int k = 2; k < l - 2; k++)
          A[(t + 1) % 2][i][j][k] =
              0.006738f * A[t % 2][i - 2][j - 2][k - 2]
            + 0.005763f * A[t % 2][i - 2][j - 2][k - 1]
            + 0.006082f * A[t % 2][i - 2][j - 2][k]
            + 0.005184f * A[t % 2][i - 2][j - 2][k + 1]
            + 0.006324f * A[t % 2][i - 2][j - 2][k + 2]
            + 0.009315f * A[t % 2][i - 2][j - 1][k - 2]
            + 0.007718f * A[t % 2][i - 2][j - 1][k - 1]
            + 0.006033f * A[t % 2][i - 2][j - 1][k]
            + 0.005803f * A[t % 2][i - 2][j - 1][k + 1]
            + 0.007125f * A[t % 2][i - 2][j - 1][k + 2]
            + 0.007045f * A[t % 2][i - 2][j][k - 2]
            + 0.009666f * A[t % 2][i - 2][j][k - 1]
            + 0.007435f * A[t % 2][i - 2][j][k]
            + 0.009521f * A[t % 2][i - 2][j][k + 1]
            + 0.009851f * A[t % 2][i - 2][j][k + 2]
            + 0.007470f * A[t % 2][i - 2][j + 1][k - 2]
            + 0.006849f * A[t % 2][i - 2][j + 1][k - 1]
            + 0.005870f * A[t % 2][i - 2][j + 1][k]
            + 0.008121f * A[t % 2][i - 2][j + 1][k + 1]
            + 0.009485f * A[t % 2][i - 2][j + 1][k + 2]
            + 0.007854f * A[t % 2][i - 2][j + 2][k - 2]
            + 0.005669f * A[t % 2][i - 2][j + 2][k - 1]
            + 0.008245f * A[t % 2][i - 2][j + 2][k]
            + 0.007766f * A[t % 2][i - 2][j + 2][k + 1]
            + 0.006169f * A[t % 2][i - 2][j + 2][k + 2]
            + 0.008702f * A[t % 2][i - 1][j - 2][k - 2]
            + 0.01006f * A[t % 2][i - 1][j - 2][k - 1]
            + 0.009286f * A[t % 2][i - 1][j - 2][k]
            + 0.009833f * A[t % 2][i - 1][j - 2][k + 1]
            + 0.009570f * A[t % 2][i - 1][j - 2][k + 2]
            + 0.009614f * A[t % 2][i - 1][j - 1][k - 2]
            + 0.007606f * A[t % 2][i - 1][j - 1][k - 1]
            + 0.006168f * A[t % 2][i - 1][j - 1][k]
            + 0.007567f * A[t % 2][i - 1][j - 1][k + 1]
            + 0.006874f * A[t % 2][i - 1][j - 1][k + 2]
            + 0.006039f * A[t % 2][i - 1][j][k - 2]
            + 0.009721f * A[t % 2][i - 1][j][k - 1]
            + 0.009564f * A[t % 2][i - 1][j][k]
            + 0.008885f * A[t % 2][i - 1][j][k + 1]
            + 0.008988f * A[t % 2][i - 1][j][k + 2]
            + 0.007566f * A[t % 2][i - 1][j + 1][k - 2]
            + 0.009410f * A[t % 2][i - 1][j + 1][k - 1]
            + 0.008093f * A[t % 2][i - 1][j + 1][k]
            + 0.007670f * A[t % 2][i - 1][j + 1][k + 1]
            + 0.009458f * A[t % 2][i - 1][j + 1][k + 2]
            + 0.007781f * A[t % 2][i - 1][j + 2][k - 2]
            + 0.008415f * A[t % 2][i - 1][j + 2][k - 1]
            + 0.006722f * A[t % 2][i - 1][j + 2][k]
            + 0.007627f * A[t % 2][i - 1][j + 2][k + 1]
            + 0.007074f * A[t % 2][i - 1][j + 2][k + 2]
            + 0.005511f * A[t % 2][i][j - 2][k - 2]
            + 0.009011f * A[t % 2][i][j - 2][k - 1]
            + 0.008167f * A[t % 2][i][j - 2][k]
            + 0.005802f * A[t % 2][i][j - 2][k + 1]
            + 0.009034f * A[t % 2][i][j - 2][k + 2]
            + 0.008574f * A[t % 2][i][j - 1][k - 2]
            + 0.005175f * A[t % 2][i][j - 1][k - 1]
            + 0.008627f * A[t % 2][i][j - 1][k]
            + 0.009611f * A[t % 2][i][j - 1][k + 1]
            + 0.006183f * A[t % 2][i][j - 1][k + 2]
            + 0.008553f * A[t % 2][i][j][k - 2]
            + 0.009276f * A[t % 2][i][j][k - 1]
            + 0.01510f * A[t % 2][i][j][k]
            + 0.005206f * A[t % 2][i][j][k + 1]
            + 0.009583f * A[t % 2][i][j][k + 2]
            + 0.007770f * A[t % 2][i][j + 1][k - 2]
            + 0.008884f * A[t % 2][i][j + 1][k - 1]
            + 0.008155f * A[t % 2][i][j + 1][k]
            + 0.008703f * A[t % 2][i][j + 1][k + 1]
            + 0.008600f * A[t % 2][i][j + 1][k + 2]
            + 0.009877f * A[t % 2][i][j + 2][k - 2]
            + 0.007614f * A[t % 2][i][j + 2][k - 1]
            + 0.005405f * A[t % 2][i][j + 2][k]
            + 0.007946f * A[t % 2][i][j + 2][k + 1]
            + 0.008263f * A[t % 2][i][j + 2][k + 2]
            + 0.008343f * A[t % 2][i + 1][j - 2][k - 2]
            + 0.007015f * A[t % 2][i + 1][j - 2][k - 1]
            + 0.005667f * A[t % 2][i + 1][j - 2][k]
            + 0.006457f * A[t % 2][i + 1][j - 2][k + 1]
            + 0.005838f * A[t % 2][i + 1][j - 2][k + 2]
            + 0.006549f * A[t % 2][i + 1][j - 1][k - 2]
            + 0.008021f * A[t % 2][i + 1][j - 1][k - 1]
            + 0.008761f * A[t % 2][i + 1][j - 1][k]
            + 0.009941f * A[t % 2][i + 1][j - 1][k + 1]
            + 0.008552f * A[t % 2][i + 1][j - 1][k + 2]
            + 0.009948f * A[t % 2][i + 1][j][k - 2]
            + 0.006158f * A[t % 2][i + 1][j][k - 1]
            + 0.009603f * A[t % 2][i + 1][j][k]
            + 0.007078f * A[t % 2][i + 1][j][k + 1]
            + 0.007298f * A[t % 2][i + 1][j][k + 2]
            + 0.005886f * A[t % 2][i + 1][j + 1][k - 2]
            + 0.006817f * A[t % 2][i + 1][j + 1][k - 1]
            + 0.01003f * A[t % 2][i + 1][j + 1][k]
            + 0.009474f * A[t % 2][i + 1][j + 1][k + 1]
            + 0.005797f * A[t % 2][i + 1][j + 1][k + 2]
            + 0.007415f * A[t % 2][i + 1][j + 2][k - 2]
            + 0.01004f * A[t % 2][i + 1][j + 2][k - 1]
            + 0.008582f * A[t % 2][i + 1][j + 2][k]
            + 0.007943f * A[t % 2][i + 1][j + 2][k + 1]
            + 0.007202f * A[t % 2][i + 1][j + 2][k + 2]
            + 0.007444f * A[t % 2][i + 2][j - 2][k - 2]
            + 0.007282f * A[t % 2][i + 2][j - 2][k - 1]
            + 0.006683f * A[t % 2][i + 2][j - 2][k]
            + 0.006824f * A[t % 2][i + 2][j - 2][k + 1]
            + 0.008422f * A[t % 2][i + 2][j - 2][k + 2]
            + 0.007134f * A[t % 2][i + 2][j - 1][k - 2]
            + 0.009187f * A[t % 2][i + 2][j - 1][k - 1]
            + 0.008335f * A[t % 2][i + 2][j - 1][k]
            + 0.005087f * A[t % 2][i + 2][j - 1][k + 1]
            + 0.008728f * A[t % 2][i + 2][j - 1][k + 2]
            + 0.005540f * A[t % 2][i + 2][j][k - 2]
            + 0.009308f * A[t % 2][i + 2][j][k - 1]
            + 0.009323f * A[t % 2][i + 2][j][k]
            + 0.007847f * A[t % 2][i + 2][j][k + 1]
            + 0.006565f * A[t % 2][i + 2][j][k + 2]
            + 0.006706f * A[t % 2][i + 2][j + 1][k - 2]
            + 0.008463f * A[t % 2][i + 2][j + 1][k - 1]
            + 0.009043f * A[t % 2][i + 2][j + 1][k]
            + 0.009463f * A[t % 2][i + 2][j + 1][k + 1]
            + 0.008533f * A[t % 2][i + 2][j + 1][k + 2]
            + 0.009753f * A[t % 2][i + 2][j + 2][k - 2]
            + 0.008792f * A[t % 2][i + 2][j + 2][k - 1]
            + 0.007965f * A[t % 2][i + 2][j + 2][k]
            + 0.009932f * A[t % 2][i + 2][j + 2][k + 1]
            + 0.007192f * A[t % 2][i + 2][j + 2][k + 2];
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

  box3d2r(T, n, m, l, A);

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
