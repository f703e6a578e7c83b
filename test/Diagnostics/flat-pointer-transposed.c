// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// A pointer swap of flat pointers whose index runs the outer loop's
// iterator along the rows (in[j * m + i]): it does not split into
// '(i + a) * m + j + b', so it is refused at the index.

void run(int T, int n, int m, double *in, double *out) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        out[i * m + j] = 0.5 * (in[j * m + i - 1] + in[j * m + i + 1]);
    double *tmp = in;
    in = out;
    out = tmp;
  }
#pragma endscop
}

// CHECK: flat-pointer-transposed.c:12:36: error: the index of the flat pointer 'in' must add 'j' itself, the innermost loop's iterator; an5dc splits an index of the form '(i + a) * m + j + b' with constants a, b and row lengths that are a parameter times a constant, or a constant (or declare 'in' as a pointer to rows, 'double (*in)[m]') [non-affine]
// CHECK-NEXT: {{^}}        out[i * m + j] = 0.5 * (in[j * m + i - 1] + in[j * m + i + 1]);
// CHECK-NEXT: {{^}}                                   ^~~~~~~~~~~~~{{$}}
