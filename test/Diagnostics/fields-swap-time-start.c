// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// With pointer swaps the step's planes count from the time loop's first
// iteration, which must then be a constant.

void rd(int n, int m, int t0, int T, float (*u)[m], float (*v)[m],
        float (*un)[m], float (*vn)[m]) {
  float (*tmp)[m];
#pragma scop
  for (int t = t0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        un[i][j] = u[i][j] + 0.1f * (u[i - 1][j] + u[i + 1][j]) - 0.01f * v[i][j];
        vn[i][j] = v[i][j] + 0.05f * (v[i][j - 1] + v[i][j + 1]) + 0.01f * u[i][j];
      }
    tmp = u; u = un; un = tmp;
    tmp = v; v = vn; vn = tmp;
  }
#pragma endscop
}

// CHECK: fields-swap-time-start.c:16:5: error: with pointer swaps the time loop must start at a constant; it starts at 't0' [not-double-buffered]
