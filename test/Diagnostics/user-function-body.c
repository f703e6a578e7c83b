// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A function the update calls is inlined when its body is locals, their
// updates and returns; a loop that is not over constant bounds (or any
// other statement) is refused where it stands, with the call noted.

static float halve(float x)
{
  while (x > 1.0f)
    x = x * 0.5f;
  return x;
}

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = halve(A[t % 2][i - 1][j] + A[t % 2][i][j]);
#pragma endscop
}

// CHECK: user-function-body.c:8:3: error: an5dc inlines a function the update calls when its body is float or double locals, assignments to them (also in loops with constant bounds and under 'if'), 'if (c) return a;' and one 'return' at the end [impure-call]
// CHECK: user-function-body.c:18:32: note: 'halve' is called here
