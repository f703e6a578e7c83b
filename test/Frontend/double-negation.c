// RUN: %an5dc %s --dump=stencil | FileCheck %s
// A double negation prints as '- -', never as a decrement.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = - -A[t % 2][i][j] * 0.5f;
#pragma endscop
}

// CHECK: update: - -A[t % 2][i][j] * 0.5f
