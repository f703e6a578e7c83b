// RUN: not %an5dc %s -o %t.cu -- -I%S/../Inputs/polybench 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// PolyBench/C's seidel-2d as the suite writes it: one array updated in
// place, so a cell reads its neighbours' values of the same sweep. Refused
// as Gauss-Seidel order at the first read of a value computed in the same
// step, saying what would be accepted.
#include <polybench.h>

#define N 40
#define TSTEPS 20
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#define DATA_TYPE double
#define SCALAR_VAL(x) x

static
void kernel_seidel_2d(int tsteps,
                      int n,
                      DATA_TYPE POLYBENCH_2D(A,N,N,n,n))
{
  int t, i, j;

#pragma scop
  for (t = 0; t <= _PB_TSTEPS - 1; t++)
    for (i = 1; i<= _PB_N - 2; i++)
      for (j = 1; j <= _PB_N - 2; j++)
        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
                   + A[i][j-1] + A[i][j] + A[i][j+1]
                   + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1])/SCALAR_VAL(9.0);
#pragma endscop
}

// CHECK: polybench-seidel-2d.c:27:20: error: this read gets a value computed in the same time step (Gauss-Seidel order); N.5D blocking needs every read from the previous step's values: 'A' is updated in place; write the step's values apart from the values it reads: a plane index ('A[(t + 1) % 2][i][j] = f(A[t % 2])'), two arrays in turn or a pointer swap [gauss-seidel]
// CHECK-NEXT: {{^}}        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
// CHECK-NEXT: {{^}}                   ^~~~~~~~~~~{{$}}
