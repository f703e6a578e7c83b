// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A product of two iterators is not an affine index.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i * j % n][j];
#pragma endscop
}

// CHECK: non-affine-index.c:9:41: error: expression is not affine: it multiplies two variables; indices and bounds must be sums of integer constants times loop iterators and parameters [non-affine]
