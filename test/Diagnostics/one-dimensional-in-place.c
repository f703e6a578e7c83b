// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// A 1D array updated in place is refused like a 2D one, and the message
// spells the plane index the program would write (with no trace of the
// row an5dc adds to plan 1D stencils as 2D).

void run(int T, int n, float A[n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      A[i] = 0.5f * (A[i - 1] + A[i + 1]);
#pragma endscop
}

// CHECK: one-dimensional-in-place.c:10:22: error: {{.*}}a plane index ('A[(t + 1) % 2][i] = f(A[t % 2])'), two arrays in turn or a pointer swap [gauss-seidel]
// CHECK-NOT: an5d_row
