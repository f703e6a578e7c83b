// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// A pointer swap of flat pointers whose index runs the outer loop's
// iterator along the rows (in[j * m + i]) splits into in[j][i]: a
// transposed read, refused at the read.

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

// CHECK: flat-pointer-transposed.c:12:33: error: this access of 'in' is transposed: its first index follows 'j', where the written cell's follows 'i'; an5dc needs every read at a fixed offset from the written cell [variable-offset]
// CHECK-NEXT: {{^}}        out[i * m + j] = 0.5 * (in[j * m + i - 1] + in[j * m + i + 1]);
// CHECK-NEXT: {{^}}                                ^~~~~~~~~~~~~~~~~{{$}}
