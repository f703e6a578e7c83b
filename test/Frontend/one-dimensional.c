// RUN: %an5dc %s --dump=stencil | FileCheck %s
// A 1D stencil is planned as a 2D one with one row: a loop an5d_row = 0 .. 0
// in front of the program's, the subscript an5d_row first in every access
// and extent 1 first in the array (the memory layout is the program's).

void run(int T, int n, float (*A)[n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      A[(t + 1) % 2][i] = 0.5f * (A[t % 2][i - 1] + A[t % 2][i + 1]);
#pragma endscop
}

// CHECK: array: A[?][1][n] (pointer to array)
// CHECK: space loop 0: an5d_row from 0 to 0 (streaming)
// CHECK-NEXT: space loop 1: i from 1 to n - 2
// CHECK: write: A[(t + 1) % 2][an5d_row][i]
// CHECK: update: 0.5f * (A[t % 2][an5d_row][i - 1] + A[t % 2][an5d_row][i + 1])
// CHECK: reach: [-0, +0] [-1, +1]
