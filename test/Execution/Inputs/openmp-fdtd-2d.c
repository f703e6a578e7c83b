/* polybench-fdtd-2d.c with OpenMP directives on its loop nests, as a
   parallel CPU build carries them: 'omp parallel for' (private(j),
   collapse(2)) and 'omp simd'. Usage: openmp-fdtd-2d nx ny tmax out.bin
   (ex, ey, then hz) */
#define POLYBENCH_USE_C99_PROTO
#define POLYBENCH_USE_SCALAR_LB
#include "common.h"
#include <polybench.h>

#define NX 20
#define NY 30
#define TMAX 10
#define _PB_NX POLYBENCH_LOOP_BOUND(NX, nx)
#define _PB_NY POLYBENCH_LOOP_BOUND(NY, ny)
#define _PB_TMAX POLYBENCH_LOOP_BOUND(TMAX, tmax)
#ifdef DATA_TYPE_IS_FLOAT
#define DATA_TYPE float
#define SCALAR_VAL(x) x##f
#else
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#endif

static
void kernel_fdtd_2d(int tmax,
                    int nx,
                    int ny,
                    DATA_TYPE POLYBENCH_2D(ex,NX,NY,nx,ny),
                    DATA_TYPE POLYBENCH_2D(ey,NX,NY,nx,ny),
                    DATA_TYPE POLYBENCH_2D(hz,NX,NY,nx,ny),
                    DATA_TYPE POLYBENCH_1D(_fict_,TMAX,tmax))
{
  /* PolyBench leaves them unset; set here so that a run of no steps
     leaves defined values. */
  int t = 0, i = -1, j = -2;

#pragma scop
  for(t = 0; t < _PB_TMAX; t++)
    {
#pragma omp parallel for
      for (j = 0; j < _PB_NY; j++)
        ey[0][j] = _fict_[t];
#pragma omp parallel for private(j)
      for (i = 1; i < _PB_NX; i++)
#pragma omp simd
        for (j = 0; j < _PB_NY; j++)
          ey[i][j] = ey[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i-1][j]);
      for (i = 0; i < _PB_NX; i++)
        for (j = 1; j < _PB_NY; j++)
          ex[i][j] = ex[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i][j-1]);
#pragma omp parallel for collapse(2)
      for (i = 0; i < _PB_NX - 1; i++)
        for (j = 0; j < _PB_NY - 1; j++)
          hz[i][j] = hz[i][j] - SCALAR_VAL(0.7)*  (ex[i][j+1] - ex[i][j] +
                                                   ey[i+1][j] - ey[i][j]);
    }
#pragma endscop
  /* The iterators as the loops leave them belong to the final state. */
  ex[0][0] += (DATA_TYPE)(t + i + j) * SCALAR_VAL(1e-3);
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int nx = atoi(argv[1]), ny = atoi(argv[2]), tmax = atoi(argv[3]);
  long cells = (long)nx * ny;
  DATA_TYPE *f[3];
  for (int k = 0; k < 3; k++) {
    f[k] = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * (cells > 0 ? cells : 1));
    for (long c = 0; c < cells; c++)
      f[k][c] = (DATA_TYPE)initial_value(k % 2, c + 13 * k);
  }
  DATA_TYPE *fict = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * (tmax > 0 ? tmax : 1));
  for (int t = 0; t < tmax; t++)
    fict[t] = (DATA_TYPE)t * SCALAR_VAL(0.25);
  kernel_fdtd_2d(tmax, nx, ny, (DATA_TYPE (*)[ny])f[0],
                 (DATA_TYPE (*)[ny])f[1], (DATA_TYPE (*)[ny])f[2], fict);
  FILE *out = fopen(argv[4], "wb");
  if (out == NULL)
    return 1;
  for (int k = 0; k < 3; k++)
    if (fwrite(f[k], sizeof(DATA_TYPE), cells, out) != (size_t)cells)
      return 1;
  return fclose(out) != 0;
}
