// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// The loop that selects the plane must be the outermost one.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int i = 1; i < n - 1; i++)
    for (int t = 0; t < T; t++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i - 1][j];
#pragma endscop
}

// CHECK: time-not-outermost.c:9:9: error: the plane index uses 't', a spatial loop; the loop whose iterator selects the plane is the time loop and must be the outermost loop [time-not-outermost]
// CHECK: time-not-outermost.c:6:3: note: the outermost loop is over 'i'
