// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Two arrays in turn where only the second nest reads the array it writes:
// refused in that nest, at that read.

void run(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + A[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
#pragma endscop
}

// CHECK: two-arrays-own-read.c:14:36: error: the second loop nest reads 'A', the array it writes; each nest must read only the array the other writes ('B' here) [two-arrays-mismatch]
// CHECK-NEXT: {{^}}        A[i][j] = 0.2 * (B[i][j] + A[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
// CHECK-NEXT: {{^}}                                   ^~~~~~~~~~~{{$}}
