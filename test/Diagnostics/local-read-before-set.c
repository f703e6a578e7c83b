// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// A local scalar declared without a value must be set before it is read:
// a read before its first assignment is refused at the read.

void run(int T, int n, float (*A)[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        float s;
        float half = 0.5f * s;
        s = A[t % 2][i - 1][j] + A[t % 2][i + 1][j];
        A[(t + 1) % 2][i][j] = half + s;
      }
#pragma endscop
}

// CHECK: local-read-before-set.c:12:29: error: 's' is read before it is set; give the local its value before the reads [unsupported-expression]
// CHECK-NEXT: {{^}}        float half = 0.5f * s;
// CHECK-NEXT: {{^}}                            ^
