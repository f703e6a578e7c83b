// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// A local scalar stands for its initializer only when nothing assigns it
// afterwards: one assigned after its declaration keeps the refusal of a
// loop body with several statements, at the second statement.

void run(int T, int n, float (*A)[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        float s;
        s = A[t % 2][i - 1][j] + A[t % 2][i + 1][j];
        A[(t + 1) % 2][i][j] = 0.5f * s;
      }
#pragma endscop
}

// CHECK: local-temp-assigned.c:13:9: error: a loop of the nest holds 3 statements; an5dc handles a single assignment 'A[(t + 1) % 2][i][j] = ...;' in perfectly nested loops [multiple-statements]
