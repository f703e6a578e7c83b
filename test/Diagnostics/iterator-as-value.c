// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Spatial loop iterators may not be used as values (the time loop's may);
// the message points to coefficient arrays, which an5dc accepts.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] * i;
#pragma endscop
}

// CHECK: iterator-as-value.c:10:49: error: the update uses loop iterator 'i' as a value; an5dc needs the same update at every cell (the time loop's iterator may appear): give a coefficient that depends on the position as a read-only array filled before the time loop and indexed by the iterators, as 'coef[i] * ...' [unsupported-expression]
