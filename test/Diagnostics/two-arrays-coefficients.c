// RUN: rm -f %t.cu
// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// Two arrays in turn whose second nest computes another update (another
// coefficient) are refused at the first difference, not run as one stencil.

void run(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.25 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
#pragma endscop
}

// CHECK: two-arrays-coefficients.c:16:19: error: the second loop nest's update differs from the first's here; two arrays in turn need the same update in both nests with the arrays' roles swapped ('B[...] = f(A); A[...] = f(B);') [two-arrays-mismatch]
// CHECK-NEXT: {{^}}        A[i][j] = 0.25 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
// CHECK-NEXT: {{^}}                  ^~~~{{$}}
// CHECK: two-arrays-coefficients.c:13:19: note: the first nest has '0.2' here
