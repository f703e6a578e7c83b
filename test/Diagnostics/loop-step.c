// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Loops must step by one.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i += 2)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j];
#pragma endscop
}

// CHECK: loop-step.c:7:32: error: the loop must step its iterator by +1 ('i++', '++i' or 'i += 1') [loop-form]
