// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Four planes in turn: an5dc takes two time levels ('% 2') or three ('% 3').

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 3) % 4][i][j] = A[(t + 2) % 4][i][j] - A[t % 4][i][j];
#pragma endscop
}

// CHECK: four-planes.c:9:11: error: the plane index cycles through 4 planes; an5dc handles two time levels ('(t + 1) % 2' for the write, 't % 2' for the reads) and three ('(t + 2) % 3' for the write, '(t + 1) % 3' and 't % 3' for the reads) [not-double-buffered]
