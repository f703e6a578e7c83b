// RUN: %an5dc %s --dump=analysis | FileCheck %s
// The analysis counts the distinct literals the update computes with as
// doubles that no SASS immediate holds (their lower 32 bits are not zero):
// 0.1 (twice, counted once) and 0.3f, a float literal a double product
// converts. 0.5 and 0.25f fit an immediate.

void run(int T, int n, int m, double (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.1 * A[t % 2][i - 1][j] + 0.1 * A[t % 2][i + 1][j]
                             + 0.5 * A[t % 2][i][j] + 0.25f * A[t % 2][i][j - 1]
                             + 0.3f * A[t % 2][i][j + 1];
#pragma endscop
}

// CHECK: wide double literals: 2
