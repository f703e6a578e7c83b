// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Two arrays in turn where each nest also reads the array it writes, at a
// cell already updated in the same sweep: Gauss-Seidel order.

void run(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + B[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + A[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
#pragma endscop
}

// CHECK: two-arrays-gauss-seidel.c:11:36: error: this read gets a value computed in the same time step (Gauss-Seidel order); N.5D blocking needs every read from the previous step's values, 'A', the array the other loop nest writes [gauss-seidel]
// CHECK-NEXT: {{^}}        B[i][j] = 0.2 * (A[i][j] + B[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
// CHECK-NEXT: {{^}}                                   ^~~~~~~~~~~{{$}}
