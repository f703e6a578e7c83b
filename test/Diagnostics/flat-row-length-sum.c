// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not %an5dc %s -o %t.cu -- -DFIELDS 2>&1 | FileCheck %s --check-prefix=FIELDS
// RUN: not test -f %t.cu
// A flat index whose row length is a sum ('i * (m + 3) + j'): an5dc splits
// row lengths that are a parameter times a constant, or a constant, so it
// is refused at the index. It was split as rows of m (fields) or of 3,
// reading other cells than C.

#ifndef FIELDS
void f(int n, int m, int T, float *in, float *out) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        out[i * (m + 3) + j] = 0.5f * (in[i * (m + 3) + j - 1] + in[i * (m + 3) + j + 1]);
    float *tmp = in; in = out; out = tmp;
  }
#pragma endscop
}
#else
void f(int n, int m, int T, float *u, float (*v)[m + 3]) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        u[i * (m + 3) + j] = u[i * (m + 3) + j] + 0.1f * v[i][j + 2];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m + 1; j++)
        v[i][j] = v[i][j] - 0.1f * u[i * (m + 3) + j - 1];
  }
#pragma endscop
}
#endif

// CHECK: flat-row-length-sum.c:15:13: error: the index of the flat pointer 'out' multiplies 'i' by a sum; an5dc splits an index of the form
// FIELDS: flat-row-length-sum.c:26:11: error: the index of the flat pointer 'u' multiplies 'i' by a sum; an5dc splits an index of the form
