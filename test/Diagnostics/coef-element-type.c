// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// A coefficient array of int elements.

void run(int T, int n, float (*A)[n][n], const int (*mask)[n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = mask[i][j] * A[t % 2][i][j];
#pragma endscop
}

// CHECK: coef-element-type.c:9:32: error: the coefficient array 'mask' has elements of type 'const int'; an5dc handles float and double [element-type]
