// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Spatial bounds may not depend on other iterators.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < i; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j];
#pragma endscop
}

// CHECK: triangular.c:8:7: error: the bounds of loop 'j' depend on 'i'; an5dc needs a rectangular grid{{.*}} [loop-form]
