// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// '1 - p' selects the other plane of a double buffer; with three planes in
// turn it is refused at the index, saying what to write.

void run(int T, int n, float A[3][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      A[1 - t % 3][i] = 0.5f * (A[t % 3][i - 1] + A[t % 3][i + 1]);
#pragma endscop
}

// CHECK: other-plane-of-three.c:10:9: error: '1 - p' and 'p ^ 1' select the other plane of two; with three planes write '(t + 2) % 3' [not-double-buffered]
