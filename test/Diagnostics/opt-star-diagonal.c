// RUN: not %an5dc %s --opt=star -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// --opt=star needs a diagonal-access-free stencil; the first read that has
// offsets in the streaming and another dimension is named. (auto picks the
// general kernel: the sum adds a row i - 1 term after row i's, an order the
// associative kernel's partial sums would change.)

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.25f * (A[t % 2][i][j - 1] + A[t % 2][i][j + 1]
                                      + A[t % 2][i - 1][j + 1] + A[t % 2][i + 1][j]);
#pragma endscop
}

// CHECK: opt-star-diagonal.c:14:41: error: --opt=star needs a diagonal-access-free stencil (rows above and below the cell read only in its own column), but this read is at offset [-1, 1]; use --opt=assoc or --opt=none (what --opt=auto picks) [opt-not-applicable]
// CHECK-NEXT: + A[t % 2][i - 1][j + 1] + A[t % 2][i + 1][j]);
// CHECK-NEXT: {{^ *}}^~~~~~~~~~~~~~~~~~~~~~{{$}}
