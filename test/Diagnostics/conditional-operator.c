// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// The conditional operator is not part of the update language.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] > 0 ? A[t % 2][i - 1][j] : 0;
#pragma endscop
}

// CHECK: conditional-operator.c:9:32: error: the conditional operator '?:' is not supported in the update{{.*}} [unsupported-expression]
