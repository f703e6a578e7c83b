// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// After the nests of a time step of several fields only swaps of two
// pointers are accepted; a copy that is not part of one is refused at it.

void rd(int n, int m, int T, float (*u)[m], float (*v)[m], float (*un)[m],
        float (*vn)[m]) {
  float (*tmp)[m];
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        un[i][j] = u[i][j] + 0.1f * (u[i - 1][j] + u[i + 1][j]) - 0.01f * v[i][j];
        vn[i][j] = v[i][j] + 0.05f * (v[i][j - 1] + v[i][j + 1]) + 0.01f * u[i][j];
      }
    tmp = u; u = un; un = tmp;
    v = vn;
  }
#pragma endscop
}

// CHECK: fields-swap-incomplete.c:17:5: error: after the loop nests of a time step of several fields an5dc accepts swaps of two pointers, one per field, as 'tmp = u; u = un; un = tmp;'; this statement is not part of one [several-fields]
