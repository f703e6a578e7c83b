// RUN: %an5dc %s --dump=stencil | FileCheck %s
// A pointer swap of flat pointers: each index splits back into one offset
// per dimension (the row offset written as a multiple of m, the constant
// left to the innermost dimension), and the pointers read as rows of m.

void run(int T, int n, int m, float *in, float *out) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        out[i * m + j] = 0.5f * (in[(i - 1) * m + j - 1] + in[m * i + m + j + 1]);
    float *tmp = in;
    in = out;
    out = tmp;
  }
#pragma endscop
}

// CHECK:      form: pointer swap
// CHECK-NEXT: plane 0: in[n][m] (flat pointer)
// CHECK-NEXT: plane 1: out[n][m] (flat pointer)
// CHECK:      statement 0: out[i][j] = 0.5f * (in[i - 1][j - 1] + in[i + 1][j + 1])
