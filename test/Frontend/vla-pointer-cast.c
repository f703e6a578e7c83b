// RUN: %an5dc %s --dump=stencil | FileCheck %s
// A flat buffer viewed as a pointer to a VLA is accepted.
#include <stdlib.h>

void run(int T, int n, int m, float *buf) {
  float (*A)[n][m] = (float (*)[n][m])buf;
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.25f * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j - 1] + A[t % 2][i][j + 1]);
#pragma endscop
}

// CHECK-LABEL: stencil run (vla-pointer-cast.c:7)
// CHECK: element type: float
// CHECK: array: A[?][n][m] (pointer to array)
// CHECK: params: [T, n, m]
// CHECK: time loop: t from 0 to T - 1
// CHECK: space loop 0: i from 1 to n - 2 (streaming)
// CHECK: space loop 1: j from 1 to m - 2
// CHECK: write: A[(t + 1) % 2][i][j]
// CHECK: reads: 4
// CHECK: shape: star
