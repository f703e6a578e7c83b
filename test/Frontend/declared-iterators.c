// RUN: %an5dc %s --dump=stencil | FileCheck %s
// Iterators declared before the region and assigned in the loop headers.

void run(int T, int n, float (*A)[n][n]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < n - 1; i++) {
      for (j = 1; j < n - 1; j++) {
        A[(t + 1) % 2][i][j] = A[t % 2][i][j - 1] * 0.5f + A[t % 2][i][j + 1] * 0.5f;
      }
    }
  }
#pragma endscop
}

// CHECK: params: [T, n]
// CHECK: space loop 1: j from 1 to n - 2
// CHECK: update: A[t % 2][i][j - 1] * 0.5f + A[t % 2][i][j + 1] * 0.5f
