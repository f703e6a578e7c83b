// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Only float and double arrays.

void run(int T, int n, int (*A)[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] / 2;
#pragma endscop
}

// CHECK: int-elements.c:9:9: error: the stencil array 'A' has elements of type 'int'; an5dc handles float and double [element-type]
