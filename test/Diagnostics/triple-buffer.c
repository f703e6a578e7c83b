// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Three planes are not double buffering.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 3][i][j] = A[t % 3][i][j];
#pragma endscop
}

// CHECK: triple-buffer.c:9:11: error: the plane index cycles through 3 planes; an5dc handles double buffering{{.*}} [not-double-buffered]
