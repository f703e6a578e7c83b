// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A pointer swap under a condition: which array a step reads depends on the
// data, so it is refused at the condition.

void run(int T, int n, int m, double (*in)[m], double (*out)[m], int every) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        out[i][j] = 0.5 * (in[i - 1][j] + in[i + 1][j]);
    if (t % every == 0) {
      double (*tmp)[m] = in;
      in = out;
      out = tmp;
    }
  }
#pragma endscop
}

// CHECK: pointer-swap-conditional.c:11:5: error: the pointer swap is conditional, so the step that reads which array depends on the data; an5dc handles an unconditional swap right after the loop nest, 'tmp = in; in = out; out = tmp;' [not-double-buffered]
// CHECK-NEXT: {{^}}    if (t % every == 0) {
// CHECK-NEXT: {{^}}    ^~~~
