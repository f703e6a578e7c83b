// RUN: %an5dc %s --dump=stencil | FileCheck %s
// A pointer swap in the time loop: the dump names the pointers with their
// planes (the rows they reach, as no row count is declared), the swap, and
// the device's steps from 0.

void run(int T, int n, int m, float (*in)[m], float (*out)[m]) {
#pragma scop
  for (int t = 1; t <= T; t++) {
    for (int i = 2; i < n - 3; i++)
      for (int j = 1; j < m - 1; j++)
        out[i][j] = 0.5f * (in[i - 2][j] + in[i + 2][j]) + 0.25f * in[i][j + 1];
    float (*tmp)[m] = in;
    in = out;
    out = tmp;
  }
#pragma endscop
}

// CHECK:      form: pointer swap
// CHECK-NEXT: plane 0: in[n - 1][m] (pointer to array)
// CHECK-NEXT: plane 1: out[n - 1][m] (pointer to array)
// CHECK:      time loop: t from 1 to T
// CHECK-NEXT: steps: t from 0 to T - 1 (an even step reads plane 0, an odd one plane 1)
// CHECK:      statement 0: out[i][j] = 0.5f * (in[i - 2][j] + in[i + 2][j]) + 0.25f * in[i][j + 1]
// CHECK-NEXT: swap: in <-> out after each step{{$}}
// CHECK:      jacobi: yes
