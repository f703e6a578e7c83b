// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// With three planes in turn, the plane being written holds the value of
// three steps back: neither the previous step nor the one before it.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 2) % 3][i][j] = 0.5f * (A[(t + 2) % 3][i][j] + A[(t + 1) % 3][i + 1][j]);
#pragma endscop
}

// CHECK: not-jacobi.c:10:40: error: this read gets a value written three or more steps earlier, neither the previous step's nor, at the cell, the one before; read the plane 'A[(t + 1) % 3]' instead [not-jacobi]
