// RUN: %an5dc %s --dump=stencil -- -I%S/../Inputs/polybench | FileCheck %s
// PolyBench/C's fdtd-2d as the suite writes it: the time step updates
// three fields (ey, ex, hz) in place in four loop nests with their own
// bounds, the first a row set from _fict_[t] (a coefficient array: the
// scop never writes it). The dump shows the fields, each statement and
// which step's values each read sees.
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

// CHECK: stencil kernel_fdtd_2d (polybench-fdtd-2d.c:29)
// CHECK-NEXT:   element type: double
// CHECK-NEXT:   form: several fields (3 fields, 4 statements per step)
// CHECK-NEXT:   field: ey[20][30] (updated in place)
// CHECK-NEXT:   field: hz[20][30] (updated in place)
// CHECK-NEXT:   field: ex[20][30] (updated in place)
// CHECK-NEXT:   params: [tmax]
// CHECK-NEXT:   time loop: t from 0 to tmax - 1 (declared before the loop)
// CHECK-NEXT:   grid: 2D, dimensions named i j
// CHECK-NEXT:   scalars: []
// CHECK-NEXT:   coefficient array: _fict_[10]
// CHECK-NEXT:   statement 0 (nest 0): j from 0 to 29, ey[0][j] = _fict_[t]
// CHECK-NEXT:   statement 1 (nest 1): i from 1 to 19, j from 0 to 29, ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j])
// CHECK-NEXT:   statement 2 (nest 2): i from 0 to 19, j from 1 to 29, ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1])
// CHECK-NEXT:   statement 3 (nest 3): i from 0 to 18, j from 0 to 28, hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j])
// CHECK-NEXT: analysis (several fields)
// CHECK-NEXT:   dimensions: 2
// CHECK-NEXT:   statement 0 writes ey; reach below/above: 0/0 0/0
// CHECK-NEXT:   statement 1 writes ey; reach below/above: 1/0 0/0
// CHECK-NEXT:     read ey[i][j]: offset [0, 0], the previous step's value
// CHECK-NEXT:     read hz[i][j]: offset [0, 0], the previous step's value
// CHECK-NEXT:     read hz[i - 1][j]: offset [-1, 0], the previous step's value
// CHECK-NEXT:   statement 2 writes ex; reach below/above: 0/0 1/0
// CHECK-NEXT:     read ex[i][j]: offset [0, 0], the previous step's value
// CHECK-NEXT:     read hz[i][j]: offset [0, 0], the previous step's value
// CHECK-NEXT:     read hz[i][j - 1]: offset [0, -1], the previous step's value
// CHECK-NEXT:   statement 3 writes hz; reach below/above: 0/1 0/1
// CHECK-NEXT:     read hz[i][j]: offset [0, 0], the previous step's value
// CHECK-NEXT:     read ex[i][j + 1]: offset [0, 1], this step's value where statement 2 wrote it
// CHECK-NEXT:     read ex[i][j]: offset [0, 0], this step's value where statement 2 wrote it
// CHECK-NEXT:     read ey[i + 1][j]: offset [1, 0], this step's value where statement 1 wrote it
// CHECK-NEXT:     read ey[i][j]: offset [0, 0], this step's value where statements 0, 1 wrote it
