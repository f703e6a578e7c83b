// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Constants too large for exact affine arithmetic are rejected, not wrapped.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i * 4000000000L * 4000000000L][j];
#pragma endscop
}

// CHECK: huge-constant.c:9:41: error: expression is not affine: its constants exceed 32 bits{{.*}} [non-affine]
