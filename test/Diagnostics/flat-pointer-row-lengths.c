// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// Flat pointers whose accesses split into rows of different lengths
// (out[i * m + j] but in[i * n + j]): refused at the index that differs.

void run(int T, int n, int m, float *in, float *out) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        out[i * m + j] = 0.5f * (in[i * m + j - 1] + in[i * n + j + 1]);
    float *tmp = in;
    in = out;
    out = tmp;
  }
#pragma endscop
}

// CHECK: flat-pointer-row-lengths.c:11:57: error: this index splits into rows of n elements along 'j', 'in' into rows of m elements; every access of the two pointers needs the same row lengths [two-arrays-mismatch]
// CHECK-NEXT: {{^}}        out[i * m + j] = 0.5f * (in[i * m + j - 1] + in[i * n + j + 1]);
// CHECK-NEXT: {{^}}                                                        ^~~~~~~~~~~~~{{$}}
