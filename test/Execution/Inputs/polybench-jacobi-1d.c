/* PolyBench/C's jacobi-1d kernel as the suite writes it: array parameters
   through POLYBENCH_1D, loop bounds through _PB_N, literals through
   SCALAR_VAL, the element type through DATA_TYPE (polybench.h is found
   through -I). N is fixed at compile time, the run picks the step count.
   Usage: polybench-jacobi-1d tsteps out.bin (A, then B) */
#include "common.h"
#include <polybench.h>

#ifndef N
#define N 300
#endif
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
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
void kernel_jacobi_1d(int tsteps,
                      int n,
                      DATA_TYPE POLYBENCH_1D(A,N,n),
                      DATA_TYPE POLYBENCH_1D(B,N,n))
{
  int t, i;

#pragma scop
  for (t = 0; t < _PB_TSTEPS; t++)
    {
      for (i = 1; i < _PB_N - 1; i++)
        B[i] = 0.33333 * (A[i-1] + A[i] + A[i + 1]);
      for (i = 1; i < _PB_N - 1; i++)
        A[i] = 0.33333 * (B[i-1] + B[i] + B[i + 1]);
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 3)
    return 2;
  int n = N, tsteps = atoi(argv[1]);
  DATA_TYPE *A = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N);
  DATA_TYPE *B = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N);
  for (long c = 0; c < (long)N; c++) {
    A[c] = (DATA_TYPE)initial_value(0, c);
    B[c] = (DATA_TYPE)initial_value(1, c);
  }
  kernel_jacobi_1d(tsteps, n, A, B);
  if (write_cells(argv[2], A, sizeof(DATA_TYPE) * N))
    return 1;
  FILE *f = fopen(argv[2], "ab");
  if (f == NULL || fwrite(B, sizeof(DATA_TYPE), N, f) != (size_t)N || fclose(f) != 0)
    return 1;
  return 0;
}
