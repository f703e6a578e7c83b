// RUN: %an5dc %s --dump=stencil | FileCheck %s
// Pure math functions are accepted in the update.
#include <math.h>

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = sqrtf(fabsf(A[t % 2][i - 1][j])) + (float)exp(-A[t % 2][i][j]) + powf(A[t % 2][i + 1][j], 2.0f);
#pragma endscop
}

// CHECK: update: sqrtf(fabsf(A[t % 2][i - 1][j])) + (float)exp(-A[t % 2][i][j]) + powf(A[t % 2][i + 1][j], 2.0f)
// CHECK: associative: yes
