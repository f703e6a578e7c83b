// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// User functions are not looked into.

static float sq(float x) { return x * x; }
void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = sq(A[t % 2][i][j]);
#pragma endscop
}

// CHECK: user-function-call.c:10:32: error: call to 'sq', which an5dc does not know to be pure{{.*}} [impure-call]
