/* Jacobi with a copy-back in 3D (heat-3d written with one result array):
   fixed-size global arrays, iterators declared before the loops, a
   coefficient array, and a copy loop over the computed cells. B's
   boundary must end as it started; -DNO_COEF: a constant instead of the
   coefficient array. Usage: copy-back-3d t0 T out.bin
   (A, then B) */
#include "common.h"

#ifndef ELEM
#define ELEM double
#endif
#define N 13
#define M 11
#define L 18

static ELEM A[N][M][L], B[N][M][L], c[N][M][L];
#ifdef NO_COEF
#define COEF(i, j, k) 0.125
#else
#define COEF(i, j, k) c[i][j][k]
#endif

static void run(int t0, int T)
{
  int t = -7, i = -7, j = -7, k = -7;
#pragma scop
  for (t = t0; t <= t0 + T - 1; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        for (k = 1; k < L - 1; k++)
          B[i][j][k] = COEF(i, j, k) * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                     + 0.0625 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                     + 0.1875 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                     + A[i][j][k];
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        for (k = 1; k < L - 1; k++)
          A[i][j][k] = B[i][j][k];
  }
#pragma endscop
  /* The C loops leave the iterators at known values; keep them in corners. */
  A[0][0][0] = (ELEM)t;
  A[0][0][L - 1] = (ELEM)i;
  B[N - 1][0][0] = (ELEM)j;
  B[0][M - 1][0] = (ELEM)k;
}

int main(int argc, char **argv)
{
  if (argc != 4)
    return 2;
  for (long x = 0; x < (long)N * M * L; x++) {
    (&A[0][0][0])[x] = (ELEM)initial_value(0, x);
    (&B[0][0][0])[x] = (ELEM)initial_value(1, x);
    (&c[0][0][0])[x] = (ELEM)(0.05 + 0.1 * initial_value(0, 3 * x + 1));
  }
  run(atoi(argv[1]), atoi(argv[2]));
  if (write_cells(argv[3], A, sizeof A))
    return 1;
  FILE *f = fopen(argv[3], "ab");
  if (f == NULL || fwrite(B, 1, sizeof B, f) != sizeof B || fclose(f) != 0)
    return 1;
  return 0;
}
