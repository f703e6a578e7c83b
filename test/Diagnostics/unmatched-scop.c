// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A scop pragma without its end.

void run(int T, int n, float (*A)[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j];
}

// CHECK: unmatched-scop.c:5:1: error: '#pragma scop' has no matching '#pragma endscop' [scop-structure]
