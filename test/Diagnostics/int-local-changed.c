// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// An int local of the loop body stands for the value it is declared with
// ('int c = i * m + j;'); one changed afterwards is refused where it
// changes.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        int jj = j - 1;
        jj += 1;
        A[(t + 1) % 2][i][j] = 0.5f * (A[t % 2][i][jj] + A[t % 2][i][j + 1]);
      }
#pragma endscop
}

// CHECK: int-local-changed.c:12:9: error: 'jj' is an int local, which an5dc reads as the value it is declared with; give it its final value there ('int jj = ...;') [multiple-statements]
