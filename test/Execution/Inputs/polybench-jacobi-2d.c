/* PolyBench/C's jacobi-2d kernel as the suite writes it: array parameters
   through POLYBENCH_2D, loop bounds through _PB_N, literals through
   SCALAR_VAL, the element type through DATA_TYPE (polybench.h is found
   through -I). Compile-time sizes (the suite's default): N is fixed, the
   run picks the step count. Usage: polybench-jacobi-2d tsteps out.bin
   (A, then B) */
#include "common.h"
#include <polybench.h>

#ifndef N
#define N 29
#endif
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
/* The step count is the run's (PolyBench fixes it per data set). */
#define TSTEPS tsteps
#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#ifdef DATA_TYPE_IS_FLOAT
#define DATA_TYPE float
#define SCALAR_VAL(x) x##f
#else
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#endif

static
void kernel_jacobi_2d(int tsteps,
                      int n,
                      DATA_TYPE POLYBENCH_2D(A,N,N,n,n),
                      DATA_TYPE POLYBENCH_2D(B,N,N,n,n))
{
  int t, i, j;

#pragma scop
  for (t = 0; t < _PB_TSTEPS; t++)
    {
      for (i = 1; i < _PB_N - 1; i++)
        for (j = 1; j < _PB_N - 1; j++)
          B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
      for (i = 1; i < _PB_N - 1; i++)
        for (j = 1; j < _PB_N - 1; j++)
          A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 3)
    return 2;
  int n = N, tsteps = atoi(argv[1]);
  DATA_TYPE (*A)[N][N] = (DATA_TYPE (*)[N][N])malloc(sizeof(DATA_TYPE) * N * N);
  DATA_TYPE (*B)[N][N] = (DATA_TYPE (*)[N][N])malloc(sizeof(DATA_TYPE) * N * N);
  for (long c = 0; c < (long)N * N; c++) {
    (&(*A)[0][0])[c] = (DATA_TYPE)initial_value(0, c);
    (&(*B)[0][0])[c] = (DATA_TYPE)initial_value(1, c);
  }
  kernel_jacobi_2d(tsteps, n, *A, *B);
  if (write_cells(argv[2], *A, sizeof *A))
    return 1;
  FILE *f = fopen(argv[2], "ab");
  if (f == NULL || fwrite(*B, 1, sizeof *B, f) != sizeof *B || fclose(f) != 0)
    return 1;
  return 0;
}
