// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Every access of the array cycles through as many planes as the write.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 2) % 3][i][j] = A[(t + 1) % 3][i][j] - A[t % 2][i][j];
#pragma endscop
}

// CHECK: plane-modulus-mismatch.c:9:55: error: this access selects its plane modulo 2 but the write modulo 3; every access of 'A' must cycle through the same planes [not-double-buffered]
// CHECK: plane-modulus-mismatch.c:9:9: note: the write is here
