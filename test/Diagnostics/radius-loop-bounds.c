// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// A loop over the radius is unrolled only with constant bounds: one up to
// a run-time radius is refused at the loop, saying what is unrolled.

void run(int T, int n, int R, float (*A)[n], const float *c) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 4; i < n - 4; i++) {
      float acc = c[0] * A[t % 2][i];
      for (int r = 1; r <= R; r++)
        acc += c[r] * (A[t % 2][i - r] + A[t % 2][i + r]);
      A[(t + 1) % 2][i] = acc;
    }
#pragma endscop
}

// CHECK: radius-loop-bounds.c:11:7: error: a loop inside the innermost loop is unrolled when it runs over constant bounds ('for (int r = 1; r <= 4; r++)', its iterator declared there, at most 64 iterations) and only updates local scalars ('acc += ...;'); this one does not [multiple-statements]
// CHECK-NEXT: {{^}}      for (int r = 1; r <= R; r++)
