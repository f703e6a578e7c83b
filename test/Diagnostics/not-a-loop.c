// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// The region must hold a loop nest.

void run(float *A) {
#pragma scop
  A[0] = 1.0f;
#pragma endscop
}

// CHECK: not-a-loop.c:6:3: error: the scop region must hold a 'for' loop nest{{.*}} [not-a-loop-nest]
