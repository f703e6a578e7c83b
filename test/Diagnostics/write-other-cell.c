// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// The write must update the iteration's own cell.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i + 1][j] = A[t % 2][i][j];
#pragma endscop
}

// CHECK: write-other-cell.c:9:9: error: the update must write the cell of its own iteration, 'A[(t + 1) % 2][i][j]' with the loop iterators in loop order (write a cell at an offset by shifting the loop bounds instead) [write-not-own-cell]
