// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// A time step of several fields swaps two pointers that neither nest writes
// through: refused at the swap, which must exchange the array a field is
// written into with the one it is read from.

void rd(int n, int m, int T, float (*u)[m], float (*v)[m], float (*un)[m],
        float (*vn)[m], float (*w)[m], float (*wn)[m]) {
  float (*tmp)[m];
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        un[i][j] = u[i][j] + 0.1f * (u[i - 1][j] + u[i + 1][j]) - 0.01f * v[i][j];
        vn[i][j] = v[i][j] + 0.05f * (v[i][j - 1] + v[i][j + 1]) + 0.01f * u[i][j];
      }
    tmp = u; u = un; un = tmp;
    tmp = w; w = wn; wn = tmp;
  }
#pragma endscop
}

// CHECK: fields-swap-unwritten.c:18:5: error: the swap exchanges 'w' and 'wn', but the loop nests write through neither; with a pointer swap the step writes through one of the two pointers and reads through the other [two-arrays-mismatch]
