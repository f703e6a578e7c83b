// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// One scop region per file.

void run(int T, int n, float (*A)[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j];
#pragma endscop
#pragma scop
  A[0][0][0] = 1;
#pragma endscop
}

// CHECK: two-regions.c:11:1: error: only one scop region per file is supported{{.*}} [scop-structure]
