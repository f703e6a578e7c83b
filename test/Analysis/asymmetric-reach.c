// RUN: %an5dc %s --dump=analysis | FileCheck %s
// Each side of each dimension has its own reach.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 2; i < n - 1; i++)
      for (int j = 1; j < m; j++)
        A[(t + 1) % 2][i][j] = 0.3f * A[t % 2][i - 2][j] + 0.3f * A[t % 2][i + 1][j] + 0.4f * A[t % 2][i][j - 1];
#pragma endscop
}

// CHECK: offsets (3): [-2, 0] [0, -1] [1, 0]
// CHECK: reach: [-2, +1] [-1, +0]
// CHECK: radius: 2
// CHECK: shape: star
// CHECK: diagonal-free: yes
