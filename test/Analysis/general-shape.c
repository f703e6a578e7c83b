// RUN: %an5dc %s --dump=analysis | FileCheck %s
// A star plus one diagonal neighbour is neither star nor box, and the
// diagonal read across streaming planes takes away diagonal freedom.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.2f * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j] + A[t % 2][i][j + 1] + A[t % 2][i + 1][j + 1]);
#pragma endscop
}

// CHECK: shape: general
// CHECK: diagonal-free: no
