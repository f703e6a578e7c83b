// RUN: %an5dc %s --dump=stencil -- -DN=48 -DREAL=double | FileCheck %s
// Flags after '--' reach the C parser.

REAL A[2][N][N];

void run(int T) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[(t + 1) % 2][i][j] = 0.5 * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j]);
#pragma endscop
}

// CHECK: element type: double
// CHECK: array: A[2][48][48]
