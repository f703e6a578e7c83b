// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Two statements in the innermost loop writing the one array: refused at
// the second.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        A[(t + 1) % 2][i][j] = A[t % 2][i - 1][j];
        A[(t + 1) % 2][i][j] = A[t % 2][i][j];
      }
#pragma endscop
}

// CHECK: multiple-statements.c:11:9: error: a loop of the nest holds 2 statements; an5dc handles a single assignment 'A[(t + 1) % 2][i][j] = ...;' in perfectly nested loops, after local scalars and their updates ('float acc = ...; acc += ...;') [multiple-statements]
