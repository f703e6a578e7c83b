// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A read with the indices swapped is not at a fixed offset.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][j][i];
#pragma endscop
}

// CHECK: transposed-read.c:9:32: error: this read is not at a fixed offset from the updated cell{{.*}} [variable-offset]
