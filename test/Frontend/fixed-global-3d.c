// RUN: %an5dc %s --dump=stencil | FileCheck %s
// A fixed-size global array with #define sizes: constant extents, 3D.
#define N 32
double A[2][N][N][N];

void run(int T) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        for (int k = 1; k < N - 1; k++)
          A[(t + 1) % 2][i][j][k] = 0.4 * A[t % 2][i][j][k] + 0.1 * (A[t % 2][i - 1][j][k] + A[t % 2][i + 1][j][k] + A[t % 2][i][j - 1][k] + A[t % 2][i][j + 1][k] + A[t % 2][i][j][k - 1] + A[t % 2][i][j][k + 1]);
#pragma endscop
}

// CHECK: array: A[2][32][32][32] (array variable)
// CHECK: params: [T]
// CHECK: space loop 0: i from 1 to 30 (streaming)
// CHECK: space loop 2: k from 1 to 30
// CHECK: dimensions: 3
// CHECK: reach: [-1, +1] [-1, +1] [-1, +1]
// CHECK: bounds: proven
