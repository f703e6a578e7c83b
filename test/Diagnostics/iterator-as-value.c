// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Spatial loop iterators may not be used as values (the time loop's may).

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] * i;
#pragma endscop
}

// CHECK: iterator-as-value.c:9:49: error: the update uses loop iterator 'i' as a value{{.*}} [unsupported-expression]
