/* PolyBench/C's heat-3d kernel as the suite writes it (braces around every
   loop body, the time loop bounded by TSTEPS itself), with run-time sizes:
   POLYBENCH_USE_C99_PROTO makes the array parameters VLAs of extent n and
   POLYBENCH_USE_SCALAR_LB makes _PB_N the parameter n (polybench.h is
   found through -I). Usage: polybench-heat-3d n tsteps out.bin (A, then B) */
#define POLYBENCH_USE_C99_PROTO
#define POLYBENCH_USE_SCALAR_LB
#include "common.h"
#include <polybench.h>

#define N 20
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define TSTEPS tsteps
#ifdef DATA_TYPE_IS_FLOAT
#define DATA_TYPE float
#define SCALAR_VAL(x) x##f
#else
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#endif

static
void kernel_heat_3d(int tsteps,
                    int n,
                    DATA_TYPE POLYBENCH_3D(A,N,N,N,n,n,n),
                    DATA_TYPE POLYBENCH_3D(B,N,N,N,n,n,n))
{
  int t, i, j, k;

#pragma scop
    for (t = 1; t <= TSTEPS; t++) {
        for (i = 1; i < _PB_N-1; i++) {
            for (j = 1; j < _PB_N-1; j++) {
                for (k = 1; k < _PB_N-1; k++) {
                    B[i][j][k] =   SCALAR_VAL(0.125) * (A[i+1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i-1][j][k])
                                 + SCALAR_VAL(0.125) * (A[i][j+1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j-1][k])
                                 + SCALAR_VAL(0.125) * (A[i][j][k+1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k-1])
                                 + A[i][j][k];
                }
            }
        }
        for (i = 1; i < _PB_N-1; i++) {
           for (j = 1; j < _PB_N-1; j++) {
               for (k = 1; k < _PB_N-1; k++) {
                   A[i][j][k] =   SCALAR_VAL(0.125) * (B[i+1][j][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i-1][j][k])
                                + SCALAR_VAL(0.125) * (B[i][j+1][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j-1][k])
                                + SCALAR_VAL(0.125) * (B[i][j][k+1] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j][k-1])
                                + B[i][j][k];
               }
           }
       }
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 4)
    return 2;
  int n = atoi(argv[1]), tsteps = atoi(argv[2]);
  long cells = (long)n * n * n;
  DATA_TYPE *A = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * cells);
  DATA_TYPE *B = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * cells);
  for (long c = 0; c < cells; c++) {
    A[c] = (DATA_TYPE)initial_value(0, c);
    B[c] = (DATA_TYPE)initial_value(1, c);
  }
  kernel_heat_3d(tsteps, n, (void *)A, (void *)B);
  if (write_cells(argv[3], A, sizeof(DATA_TYPE) * cells))
    return 1;
  FILE *f = fopen(argv[3], "ab");
  if (f == NULL || fwrite(B, 1, sizeof(DATA_TYPE) * cells, f) != sizeof(DATA_TYPE) * cells ||
      fclose(f) != 0)
    return 1;
  return 0;
}
