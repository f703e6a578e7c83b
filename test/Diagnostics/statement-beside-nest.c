// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A statement next to the loop nest inside the region.

void run(int T, int n, float (*A)[n][n]) {
  int x;
#pragma scop
  x = 0;
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j];
#pragma endscop
}

// CHECK: statement-beside-nest.c:8:3: error: the scop region must hold exactly one loop nest; move this statement outside{{.*}} [scop-structure]
