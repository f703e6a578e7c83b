// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// Two arrays in turn through pointers to rows copy the rows their accesses
// reach, which needs every first index to be 'i + c': a read at 2 * i is
// refused at the read.

void run(int tsteps, int n, int h, float (*A)[n], float (*B)[n]) {
#pragma scop
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < h; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.5f * (A[i][j] + A[2 * i][j]);
    for (int i = 1; i < h; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = 0.5f * (B[i][j] + B[2 * i][j]);
  }
#pragma endscop
}

// CHECK: two-arrays-rows-reached-offset.c:12:37: error: the first index must be 'i + c' with a constant c: 'A' declares no row count, so the rows its accesses reach are the rows copied to the GPU [variable-offset]
