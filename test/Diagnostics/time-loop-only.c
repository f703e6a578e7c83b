// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// A time loop with no spatial loop is not a stencil.

void run(int T, float (*A)[4]) {
#pragma scop
  for (int t = 0; t < T; t++)
    A[(t + 1) % 2][1] = A[t % 2][0];
#pragma endscop
}

// CHECK: time-loop-only.c:7:3: error: found 1 nested loops; an5dc handles a time loop around 1, 2 or 3 spatial loops (a 1D, 2D or 3D grid) [dimensionality]
