// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A 1D stencil is outside the 2D/3D scope.

void run(int T, int n, float (*A)[n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      A[(t + 1) % 2][i] = A[t % 2][i - 1];
#pragma endscop
}

// CHECK: one-dimensional.c:6:3: error: found 2 nested loops; an5dc handles a time loop around 2 or 3 spatial loops (a 2D or 3D grid) [dimensionality]
