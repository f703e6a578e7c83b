// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// A coefficient read past the end of its array at some interior cell.

#define N 64
float A[2][N][N];
float c[N][N];
void run(int T) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[(t + 1) % 2][i][j] = c[i][j + 2] * A[t % 2][i][j];
#pragma endscop
}

// CHECK: coef-out-of-bounds.c:12:32: error: this read is outside the coefficient array 'c' at some cell of the loop nest; shrink the loop bounds or enlarge the array [out-of-bounds]
// CHECK: coef-out-of-bounds.c:6:1: note: 'c' is declared here
