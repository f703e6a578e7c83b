// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// An array read at both the time step and the cell (a forcing field per
// step) is a field of its own: refused, with the two forms accepted.

void run(int T, int n, float (*A)[n][n], const float (*F)[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] + F[t][i][j];
#pragma endscop
}

// CHECK: coef-time-and-cell.c:10:49: error: reads 'F', which the scop does not write, at both the time step and a cell; an array the scop only reads is read at the cell ('F[i][j]') or at the step ('F[t]'); one that changes with both is a field, which the time step writes [coefficient-index]
// CHECK: coef-time-and-cell.c:5:42: note: 'F' is declared here
