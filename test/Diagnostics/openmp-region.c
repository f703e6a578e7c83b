// RUN: not %an5dc %s -o %t.cu -- -fopenmp 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// An OpenMP parallel region around the time loop is refused at the
// directive, saying where directives are read (on the spatial loops).

void run(int T, int n, float A[2][n])
{
#pragma scop
#pragma omp parallel
  for (int t = 0; t < T; t++) {
#pragma omp for
    for (int i = 1; i < n - 1; i++)
      A[(t + 1) % 2][i] = 0.5f * (A[t % 2][i - 1] + A[t % 2][i + 1]);
  }
#pragma endscop
}

// CHECK: openmp-region.c:9:1: error: the scop region must hold a 'for' loop nest: a time loop around 1, 2 or 3 spatial loops; an OpenMP region around the time loop is not read: put the directives on the spatial loops ('#pragma omp parallel for'), which an5dc looks through [not-a-loop-nest]
// CHECK-NEXT: {{^}}#pragma omp parallel
