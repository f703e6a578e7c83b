// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// A copy-back over more cells than the first nest computes (here the whole
// array, boundary included) is refused at its loop: the copy must cover
// exactly the computed cells.

void run(int tsteps, int n, float A[n][n], float B[n][n]) {
#pragma scop
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        A[i][j] = B[i][j];
  }
#pragma endscop
}

// CHECK: copy-back-bounds.c:13:5: error: this loop runs 'i' from 0 to n - 1, the first nest's loop 'i' from 1 to n - 2; a copy-back must copy exactly the cells the first nest computes, in loops like the first nest's [two-arrays-mismatch]
// CHECK-NEXT: {{^}}    for (int i = 0; i < n; i++)
// CHECK: copy-back-bounds.c:10:5: note: the first nest's loop
