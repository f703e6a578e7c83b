// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Reading the plane being written, at a cell already updated this step, is Gauss-Seidel order.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.5f * (A[(t + 1) % 2][i - 1][j] + A[t % 2][i + 1][j]);
#pragma endscop
}

// CHECK: gauss-seidel.c:9:40: error: this read gets a value computed in the same time step (Gauss-Seidel order); N.5D blocking needs every read from the previous step's plane, 'A[t % 2]' [gauss-seidel]
// CHECK-NEXT: {{^}}        A[(t + 1) % 2][i][j] = 0.5f * (A[(t + 1) % 2][i - 1][j] + A[t % 2][i + 1][j]);
// CHECK-NEXT: {{^}}                                       ^~~~~~~~~~~~~~~~~~~~~~~~
