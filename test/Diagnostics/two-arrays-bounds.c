// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Two arrays in turn need the same loops in both nests: another bound in
// the second nest is refused at its loop.

void run(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (i = 2; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
#pragma endscop
}

// CHECK: two-arrays-bounds.c:12:5: error: this loop runs 'i' from 2 to n - 2, the first nest's loop 'i' from 1 to n - 2; two arrays in turn need the same loops in both nests [two-arrays-mismatch]
// CHECK-NEXT: {{^}}    for (i = 2; i < n - 1; i++)
// CHECK-NEXT: {{^}}    ^~~~
// CHECK: two-arrays-bounds.c:9:5: note: the first nest's loop
