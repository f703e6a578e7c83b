// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A read below the array's start is always outside it.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i - 1][j - 2];
#pragma endscop
}

// CHECK: out-of-bounds.c:9:32: error: this read is outside the array 'A': index 2 ('j - 2') can be negative; shrink the loop bounds by the stencil's reach or enlarge the array [out-of-bounds]
// CHECK: out-of-bounds.c:4:31: note: 'A' is declared here
