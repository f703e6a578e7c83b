// RUN: %an5dc %s --dump=stencil | FileCheck %s
// With '& 1' a negative time is fine: two's complement keeps the plane 0 or 1.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = -2; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) & 1][i][j] = 0.5f * (A[t & 1][i - 1][j] + A[t & 1][i + 1][j]);
#pragma endscop
}

// CHECK: time loop: t from -2 to T - 1
// CHECK: bounds: proven
