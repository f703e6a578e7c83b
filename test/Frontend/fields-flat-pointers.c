// RUN: %an5dc %s --dump=stencil | FileCheck %s
// Fields through flat pointers: each one index splits into one subscript
// per loop of its nest ('(i - 1) * m + j' and 'i * m + j - m' are row
// i - 1, 'm * i + m + j' row i + 1), and each pointer reads as rows of
// the lengths the index multiplies by. A swapped pair of flat pointers is
// one field's two planes; a flat pointer updated in place is a field of one.

void rd(int n, int m, int T, float *u, float *un, float *e, float *h) {
  float *tmp;
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        un[i * m + j] = u[i * m + j] + 0.1f * (u[(i - 1) * m + j] + u[m * i + m + j] - 2.0f * u[i * m + j]);
    for (int i = 1; i < n; i++)
      for (int j = 0; j < m; j++)
        e[i * m + j] = e[i * m + j] - 0.5f * (h[i * m + j] - h[i * m + j - m]);
    for (int i = 0; i < n - 1; i++)
      for (int j = 0; j < m; j++)
        h[i * m + j] = h[i * m + j] - 0.7f * e[i * m + j];
    tmp = u; u = un; un = tmp;
  }
#pragma endscop
}

// CHECK:      form: several fields (3 fields, 3 statements per step)
// CHECK-NEXT: field: u[2][?][m] (2 planes: it and un, pointers swapped after each step; flat pointers indexed in rows)
// CHECK-NEXT: field: e[?][m] (updated in place; flat pointer indexed in rows)
// CHECK-NEXT: field: h[?][m] (updated in place; flat pointer indexed in rows)
// CHECK:      statement 0 (nest 0): i from 1 to n - 2, j from 1 to m - 2, u[(t + 1) % 2][i][j] = u[t % 2][i][j] + 0.1f * (u[t % 2][i - 1][j] + u[t % 2][i + 1][j] - 2.0f * u[t % 2][i][j])
// CHECK-NEXT: statement 1 (nest 1): i from 1 to n - 1, j from 0 to m - 1, e[i][j] = e[i][j] - 0.5f * (h[i][j] - h[i - 1][j])
// CHECK-NEXT: statement 2 (nest 2): i from 0 to n - 2, j from 0 to m - 1, h[i][j] = h[i][j] - 0.7f * e[i][j]
