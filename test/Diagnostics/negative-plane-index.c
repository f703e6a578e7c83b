// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A time loop starting below zero makes C's '%' give plane -1.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = -2; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.5f * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j]);
#pragma endscop
}

// CHECK: negative-plane-index.c:9:9: error: the plane index '(t + 1) % 2' is negative when t + 1 < 0 (C's '%' keeps the sign){{.*}} [out-of-bounds]
