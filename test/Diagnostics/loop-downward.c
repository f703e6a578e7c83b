// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Loops must count upwards.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = n - 2; i > 0; i--)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j];
#pragma endscop
}

// CHECK: loop-downward.c:7:25: error: the loop condition must bound the iterator from above{{.*}} [loop-form]
