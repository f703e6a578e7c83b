// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Inlining a function that calls itself would not end: refused at the
// inner call.

static float decay(float x) { return 0.5f * decay(x); }

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = decay(A[t % 2][i][j]);
#pragma endscop
}

// CHECK: user-function-recursive.c:5:45: error: 'decay' calls itself; an5dc inlines the functions the update calls, so they may not be recursive [impure-call]
// CHECK: user-function-recursive.c:12:32: note: in the call of 'decay' here
