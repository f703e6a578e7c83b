// RUN: %an5dc %s --dump=analysis | FileCheck %s
// In a float stencil, float literals in float arithmetic are not double
// literals (an FFMA immediate holds any float); the double literal 0.1,
// whose product C computes in double, is.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.3f * A[t % 2][i - 1][j] + 0.7f * A[t % 2][i + 1][j]
                             + 0.1 * A[t % 2][i][j];
#pragma endscop
}

// CHECK: wide double literals: 1
