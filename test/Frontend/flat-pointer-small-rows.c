// RUN: %an5dc %s --dump=stencil | FileCheck %s
// With constant row lengths an index's constant has several splits into
// rows and cells; the one that keeps every inner loop inside its row is
// the one C reads. Rows of 3 cells with reads two cells to the right
// (nearest-cell rounding would make 'k + 2' the next row's 'k - 1', out of
// the row for k = 0) and rows of 4 with a read two rows up and two cells
// right in 3D.
#define M 10
#define L 3

void run(int T, float *in, float *out) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 2; i < 5 - 2; i++)
      for (int j = 2; j < M - 3; j++)
        for (int k = 0; k < L - 2; k++)
          out[(i * M + j) * L + k] = 0.5f * in[((i - 1) * M + j + 1) * L + k + 2] + 0.25f * in[((i - 2) * M + j - 2) * L + k + 1];
    float *tmp = in;
    in = out;
    out = tmp;
  }
#pragma endscop
}

// CHECK:      form: pointer swap
// CHECK:      statement 0: out[i][j][k] = 0.5f * in[i - 1][j + 1][k + 2] + 0.25f * in[i - 2][j - 2][k + 1]
