// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A read past the end of a fixed-size array.

#define N 64
float A[2][N][N];
void run(int T) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i + 2][j];
#pragma endscop
}

// CHECK: out-of-bounds-fixed.c:11:32: error: this read is outside the array 'A': index 1 ('i + 2') can reach the extent 64; {{.*}} [out-of-bounds]
