// RUN: %an5dc %s --dump=stencil | FileCheck %s
// Two arrays in turn: the dump names both arrays with their planes, the
// loop as written and the device's Jacobi steps, and both statements.

void run(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
#pragma endscop
}

// CHECK:      element type: double
// CHECK-NEXT: form: two arrays in turn (2 Jacobi steps per time iteration)
// CHECK-NEXT: plane 0: A[n][n] (array parameter)
// CHECK-NEXT: plane 1: B[n][n] (array parameter)
// CHECK:      time loop: t from 0 to tsteps - 1 (declared before the loop)
// CHECK-NEXT: steps: t from 0 to 2*tsteps - 1 (an even step reads plane 0, an odd one plane 1)
// CHECK:      statement 0: B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j])
// CHECK-NEXT: statement 1: A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j])
// CHECK:      jacobi: yes
// CHECK:      bounds: proven
