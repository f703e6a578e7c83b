// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// += reads the plane being written.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] += A[t % 2][i][j];
#pragma endscop
}

// CHECK: compound-assignment.c:9:9: error: compound assignment '+=' reads the plane being written{{.*}} [unsupported-expression]
