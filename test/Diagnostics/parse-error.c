// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Clang's own errors are reported as clang reports them.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] +;
#pragma endscop
}

// CHECK: parse-error.c:9:48: error: expected expression
// CHECK-NOT: [no-scop]
