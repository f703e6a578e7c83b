/* PolyBench/C's fdtd-2d kernel, written as the suite writes it (from its
   formulas): three fields updated in place each time step, ey and ex from
   hz, then hz from the new ex and ey, the first row of ey from _fict_[t];
   11 FLOP per cell and step (ey 3, ex 3, hz 5).
   Usage: fdtd2d [nx ny [T [out.bin]]]  (defaults 64 64 10); prints a
   checksum of each field; out.bin receives ex, ey and hz (raw real). */
#include <stdio.h>
#include <stdlib.h>

#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

static void fdtd2d(int tmax, int nx, int ny, real ex[nx][ny], real ey[nx][ny],
                   real hz[nx][ny], const real *_fict_)
{
  int t, i, j;
#pragma scop
  for (t = 0; t < tmax; t++) {
    for (j = 0; j < ny; j++)
      ey[0][j] = _fict_[t];
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - (real)0.5 * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - (real)0.5 * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - (real)0.7 * (ex[i][j + 1] - ex[i][j] +
                                           ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int nx = 64, ny = 64, T = 10;
  if (argc != 1 && argc != 3 && argc != 4 && argc != 5) {
    fprintf(stderr, "usage: %s [nx ny [T [out.bin]]]\n", argv[0]);
    return 1;
  }
  if (argc >= 3) {
    nx = atoi(argv[1]);
    ny = atoi(argv[2]);
  }
  if (argc >= 4)
    T = atoi(argv[3]);
  if (nx < 1 || ny < 1 || T < 0)
    return 1;
  size_t cells = (size_t)nx * ny;
  real *buf = (real *)malloc(sizeof(real) * 3 * cells);
  real *fict = (real *)malloc(sizeof(real) * (T > 0 ? T : 1));
  if (buf == NULL || fict == NULL) {
    fprintf(stderr, "%s: out of memory\n", argv[0]);
    return 1;
  }
  /* PolyBench's initial values. */
  for (int t = 0; t < T; t++)
    fict[t] = (real)t;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) {
      buf[(size_t)i * ny + j] = (real)(((double)i * (j + 1)) / nx);
      buf[cells + (size_t)i * ny + j] = (real)(((double)i * (j + 2)) / ny);
      buf[2 * cells + (size_t)i * ny + j] = (real)(((double)i * (j + 3)) / nx);
    }
  fdtd2d(T, nx, ny, (real (*)[ny])buf, (real (*)[ny])(buf + cells),
         (real (*)[ny])(buf + 2 * cells), fict);
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
  free(fict);
  return 0;
}
