// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Reading the written plane at the own cell gets the value of two steps back.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.5f * (A[(t + 1) % 2][i][j] + A[t % 2][i + 1][j]);
#pragma endscop
}

// CHECK: not-jacobi.c:9:40: error: this read gets a value written two or more steps earlier, not the previous step's; read the plane 'A[t % 2]' instead [not-jacobi]
