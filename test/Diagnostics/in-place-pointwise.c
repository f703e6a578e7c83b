// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// An array updated in place whose update reads only its own cell: no read
// of this step's values, but the one array still holds one time level, so
// it is refused at the write, saying how to keep the values apart.

void f(int T, int n, double A[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = 0.5 * A[i][j];
#pragma endscop
}

// CHECK: in-place-pointwise.c:12:9: error: 'A' is updated in place, with no plane index; write the step's values apart from the values it reads: a plane index ('A[(t + 1) % 2][i][j] = f(A[t % 2])'), two arrays in turn or a pointer swap [not-double-buffered]
// CHECK-NEXT: {{^}}        A[i][j] = 0.5 * A[i][j];
// CHECK-NEXT: {{^}}        ^~~~~~~{{$}}
