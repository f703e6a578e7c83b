// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// Three time levels: the step before the previous one is read at the cell
// itself only; a read of it at a neighbour is refused at that read.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 2) % 3][i][j] = 2 * A[(t + 1) % 3][i][j] - A[t % 3][i][j + 1]
                               + 0.1f * A[(t + 1) % 3][i - 1][j];
#pragma endscop
}

// CHECK: older-level-offset.c:11:59: error: this read of the step before the previous one is not at the updated cell; an5dc reads that level at the cell itself only ('A[t % 3][i][j]'), the previous step's plane at any offset [older-level-offset]
// CHECK-NEXT: {{.*}}A[t % 3][i][j + 1]
// CHECK-NEXT: {{ *}}^~~~~~~~~~~~~~~~~
