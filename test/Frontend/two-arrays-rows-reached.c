// RUN: %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Two arrays in turn whose first extent is not declared (pointers to rows):
// the GPU copies the rows the accesses reach, 0 to the last row written
// (n - 2) plus the reach above it (1): n rows.

void run(int tsteps, int n, double (*A)[n], double (*B)[n]) {
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

// CHECK: form: two arrays in turn
// CHECK-NEXT: plane 0: A[n][n] (pointer to array)
// CHECK-NEXT: plane 1: B[n][n] (pointer to array)
