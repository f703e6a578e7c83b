// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// Locals are set before the assignment of the stencil array; a statement
// after it (here another update of the local) is refused as a loop body
// of several statements, at the second statement.

void run(int T, int n, float (*A)[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        float s = A[t % 2][i - 1][j] + A[t % 2][i + 1][j];
        A[(t + 1) % 2][i][j] = 0.5f * s;
        s += 1.0f;
      }
#pragma endscop
}

// CHECK: local-set-after.c:13:9: error: a loop of the nest holds 3 statements; an5dc handles a single assignment 'A[(t + 1) % 2][i][j] = ...;' in perfectly nested loops, after local scalars and their updates ('float acc = ...; acc += ...;') [multiple-statements]
