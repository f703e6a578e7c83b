// RUN: %an5dc %s --dump=stencil | FileCheck %s
// A fixed-size local array and constant loop bounds.

int main(void) {
  static float A[2][64][64];
#pragma scop
  for (int t = 0; t < 10; t++)
    for (int i = 2; i < 62; i++)
      for (int j = 2; j < 62; j++)
        A[(t + 1) % 2][i][j] = 0.5f * A[t % 2][i - 2][j] + 0.5f * A[t % 2][i][j + 2];
#pragma endscop
  return 0;
}

// CHECK: array: A[2][64][64] (array variable)
// CHECK: params: []
// CHECK: time loop: t from 0 to 9
// CHECK: reach: [-2, +0] [-0, +2]
