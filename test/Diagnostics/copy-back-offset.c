// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// A copy from another cell than the one written ('A[i][j] = B[i][j + 1]')
// is not a copy-back: refused at the read.

void run(int tsteps, int n, float A[n][n], float B[n][n]) {
#pragma scop
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = B[i][j + 1];
  }
#pragma endscop
}

// CHECK: copy-back-offset.c:14:19: error: a copy-back copies each cell the first nest computes to the same cell of the array that nest reads, 'A[i][j] = B[i][j];' [two-arrays-mismatch]
// CHECK-NEXT: {{^}}        A[i][j] = B[i][j + 1];
// CHECK-NEXT: {{^}}                  ^~~~~~~~~~~
