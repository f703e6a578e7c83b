/* A small stand-in for PolyBench/C's polybench.h, written for an5dc's tests
   from the macros' documented meaning (the suite is not packaged here): the
   array-parameter and loop-bound macros the stencil kernels are written
   with. A kernel's own header defines DATA_TYPE, SCALAR_VAL and _PB_N.

   POLYBENCH_2D(A, N, M, n, m) declares the array A with extents N and M
   (compile-time sizes), or n and m (run-time sizes) under
   POLYBENCH_USE_C99_PROTO; each extent is padded by POLYBENCH_PADDING_FACTOR.
   POLYBENCH_LOOP_BOUND(N, n) is N, or n under POLYBENCH_USE_SCALAR_LB. */
#ifndef POLYBENCH_H
#define POLYBENCH_H

#ifndef POLYBENCH_PADDING_FACTOR
#define POLYBENCH_PADDING_FACTOR 0
#endif

#ifdef POLYBENCH_USE_C99_PROTO
#define POLYBENCH_C99_SELECT(compile_time, run_time) run_time
#else
#define POLYBENCH_C99_SELECT(compile_time, run_time) compile_time
#endif

#define POLYBENCH_EXTENT(d, dd) \
  [POLYBENCH_C99_SELECT(d, dd) + POLYBENCH_PADDING_FACTOR]
#define POLYBENCH_1D(var, d1, dd1) var POLYBENCH_EXTENT(d1, dd1)
#define POLYBENCH_2D(var, d1, d2, dd1, dd2) \
  var POLYBENCH_EXTENT(d1, dd1) POLYBENCH_EXTENT(d2, dd2)
#define POLYBENCH_3D(var, d1, d2, d3, dd1, dd2, dd3) \
  var POLYBENCH_EXTENT(d1, dd1) POLYBENCH_EXTENT(d2, dd2) \
      POLYBENCH_EXTENT(d3, dd3)

#ifdef POLYBENCH_USE_SCALAR_LB
#define POLYBENCH_LOOP_BOUND(compile_time, run_time) run_time
#else
#define POLYBENCH_LOOP_BOUND(compile_time, run_time) compile_time
#endif

#endif
