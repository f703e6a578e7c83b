// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Each use of a local stands for its value: squaring a local 30 times
// would write its first value 2^30 times. Refused once the update passes
// the size the later stages take, at the read that crosses it.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        float x = A[t % 2][i][j] + A[t % 2][i - 1][j];
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        x = x * x;
        A[(t + 1) % 2][i][j] = x;
      }
#pragma endscop
}

// CHECK: update-size.c:{{[0-9]+}}:{{[0-9]+}}: error: the update grows past 400000 operations once its locals and function calls stand for their values (each use of a local repeats its value); use a local's value fewer times [too-deep]
// CHECK-NOT: error:
