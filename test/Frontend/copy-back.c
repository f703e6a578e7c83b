// RUN: %an5dc %s --dump=stencil | FileCheck %s
// Jacobi with a copy-back: the dump names both arrays with their planes,
// the loop as written and the device's steps (both planes start as A), the
// update and the copy.

void run(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
#pragma scop
  for (t = 2; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma endscop
}

// CHECK:      element type: double
// CHECK-NEXT: form: copy-back
// CHECK-NEXT: plane 0: A[n][n] (array parameter)
// CHECK-NEXT: plane 1: B[n][n] (array parameter)
// CHECK:      time loop: t from 2 to tsteps - 1 (declared before the loop)
// CHECK-NEXT: steps: t from 0 to tsteps - 3 (step s reads plane s % 2; both start as plane 0)
// CHECK:      statement 0: B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j])
// CHECK-NOT:  statement 1:
// CHECK:      copy-back: A[i][j] = B[i][j] after each step
// CHECK:      jacobi: yes
// CHECK:      bounds: proven
