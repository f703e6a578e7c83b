// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Two nests where each also reads the array it writes, at a cell already
// updated in the same sweep (Gauss-Seidel order): refused at the first
// such read.

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

// CHECK: two-arrays-gauss-seidel.c:12:36: error: this read meets elements of 'B' that its own statement writes in other iterations of the loop nest: C reads this step's values where the loops have passed and the previous step's where they have not (Gauss-Seidel order), which cells computed in parallel cannot reproduce; read a copy of the previous step (a plane index, 'B[(t + 1) % 2]' written from 'B[t % 2]', or a second array) [gauss-seidel]
// CHECK-NEXT: {{^}}        B[i][j] = 0.2 * (A[i][j] + B[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
// CHECK-NEXT: {{^}}                                   ^~~~~~~~~~~{{$}}
