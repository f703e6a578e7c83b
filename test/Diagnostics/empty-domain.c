// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A loop nest that never runs.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 5; i < 3; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j];
#pragma endscop
}

// CHECK: empty-domain.c:6:3: error: this loop nest never executes, whatever the sizes; check the loop bounds [empty-domain]
