// RUN: not %an5dc %s -o %t.cu -- -I%S/../Inputs/polybench 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// PolyBench/C's fdtd-2d as the suite writes it: the time step updates
// three fields (ey, ex, hz) in four loop nests. Several fields are not
// accepted yet: refused at the first nest writing a second field.
#include <polybench.h>

#define NX 20
#define NY 30
#define TMAX 10
#define _PB_NX POLYBENCH_LOOP_BOUND(NX, nx)
#define _PB_NY POLYBENCH_LOOP_BOUND(NY, ny)
#define _PB_TMAX POLYBENCH_LOOP_BOUND(TMAX, tmax)
#define DATA_TYPE double
#define SCALAR_VAL(x) x

static
void kernel_fdtd_2d(int tmax,
                    int nx,
                    int ny,
                    DATA_TYPE POLYBENCH_2D(ex,NX,NY,nx,ny),
                    DATA_TYPE POLYBENCH_2D(ey,NX,NY,nx,ny),
                    DATA_TYPE POLYBENCH_2D(hz,NX,NY,nx,ny),
                    DATA_TYPE POLYBENCH_1D(_fict_,TMAX,tmax))
{
  int t, i, j;

#pragma scop
  for(t = 0; t < tmax; t++)
    {
      for (j = 0; j < _PB_NY; j++)
        ey[0][j] = _fict_[t];
      for (i = 1; i < _PB_NX; i++)
        for (j = 0; j < _PB_NY; j++)
          ey[i][j] = ey[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i-1][j]);
      for (i = 0; i < _PB_NX; i++)
        for (j = 1; j < _PB_NY; j++)
          ex[i][j] = ex[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i][j-1]);
      for (i = 0; i < _PB_NX - 1; i++)
        for (j = 0; j < _PB_NY - 1; j++)
          hz[i][j] = hz[i][j] - SCALAR_VAL(0.7)*  (ex[i][j+1] - ex[i][j] +
                                                   ey[i+1][j] - ey[i][j]);
    }
#pragma endscop
}

// CHECK: polybench-fdtd-2d.c:36:7: error: this loop nest writes 'ex', another array than the time step's first nest ('ey'): several fields updated in one time step (here 'ey', 'ex' and 'hz') are not accepted yet; an5dc accepts one loop nest writing one array (with a plane index, or through a pointer swap after it) or two loop nests computing two arrays from each other [several-fields]
// CHECK-NEXT: {{^}}      for (i = 0; i < _PB_NX; i++)
// CHECK-NEXT: {{^}}      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~{{$}}
