// RUN: %an5dc %s --dump=stencil | FileCheck %s
// A VLA array parameter keeps its declared plane extent.

void run(int T, int n, int m, double a[2][n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        a[(t + 1) % 2][i][j] = 0.5 * a[t % 2][i][j] + 0.125 * (a[t % 2][i - 1][j] + a[t % 2][i + 1][j] + a[t % 2][i][j - 1] + a[t % 2][i][j + 1]);
#pragma endscop
}

// CHECK: element type: double
// CHECK: array: a[2][n][m] (array parameter)
// CHECK: bounds: proven
// CHECK-NOT: plane extent not declared
