// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Reads of another array at the time step: only the one array's planes
// may depend on it (an array the scop only reads is a coefficient array).

void run(int T, int n, float (*A)[n][n], float (*B)[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] + B[t % 2][i][j];
#pragma endscop
}

// CHECK: second-array.c:10:51: error: reads 'B', which the scop does not write, at a plane of the time step; {{.*}} [coefficient-index]
// CHECK: second-array.c:5:42: note: 'B' is declared here
