// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// 'int jj = jj + 1;' reads jj before it has a value: not an int local that
// stands for its value (it would stand for itself), refused at the
// declaration.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        int jj = jj + 1;
        A[(t + 1) % 2][i][j] = 0.5f * (A[t % 2][i][jj] + A[t % 2][i][j + 1]);
      }
#pragma endscop
}

// CHECK: int-local-self.c:11:18: error: 'jj' is read in its own initializer, before it has a value [unsupported-expression]
