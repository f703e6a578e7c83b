// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Two arrays in turn whose first extent is not declared (pointers to rows)
// cannot be copied to the GPU whole: refused at the first access.

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

// CHECK: two-arrays-unknown-extent.c:11:9: error: the extent of 'B' along its first dimension is not declared, and the GPU copy needs it; declare the array with all its extents, e.g. the parameter 'double B[n][m]' [dimensionality]
