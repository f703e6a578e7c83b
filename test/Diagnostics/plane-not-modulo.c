// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// The plane must be chosen modulo 2.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[1][i][j] = A[0][i][j];
#pragma endscop
}

// CHECK: plane-not-modulo.c:9:11: error: the first index must select a plane of the double buffer{{.*}} [not-double-buffered]
