// RUN: %an5dc %s --dump=stencil | FileCheck %s
// '<=' bounds, '++t', 't += 1' and 'j = j + 1' are all unit steps.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 1; t <= T; ++t)
    for (int i = 1; i <= n - 2; i += 1)
      for (int j = 1; j <= m - 2; j = j + 1)
        A[(t + 1) % 2][i][j] = A[t % 2][i - 1][j] + A[t % 2][i][j + 1];
#pragma endscop
}

// CHECK: time loop: t from 1 to T
// CHECK: space loop 0: i from 1 to n - 2
// CHECK: space loop 1: j from 1 to m - 2
