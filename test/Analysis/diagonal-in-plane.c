// RUN: %an5dc %s --dump=analysis | FileCheck %s
// Diagonal reads within the streaming plane keep diagonal freedom: the
// planes above and below are read only at the cell's own column.

void run(int T, int n, int m, int l, float (*A)[n][m][l]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          A[(t + 1) % 2][i][j][k] = 0.2f * (A[t % 2][i - 1][j][k] + A[t % 2][i + 1][j][k] + A[t % 2][i][j - 1][k - 1] + A[t % 2][i][j + 1][k + 1] + A[t % 2][i][j][k]);
#pragma endscop
}

// CHECK: shape: general
// CHECK: diagonal-free: yes
