// RUN: %an5dc %s --dump=stencil | FileCheck %s
// A coupled pair computed into two other arrays whose pointers the time
// loop swaps after its nest: each field is its two arrays, step t reading
// plane t % 2 (the array its pointer names when the loop starts, for the
// first step) and writing the other; the statements read and write the
// planes.

void rd(int n, int m, int T, float (*u)[m], float (*v)[m], float (*un)[m],
        float (*vn)[m]) {
  float (*tmp)[m];
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        vn[i][j] = v[i][j] + 0.05f * (v[i][j - 1] + v[i][j + 1] - 2.0f * v[i][j]) + 0.01f * u[i][j] * v[i][j];
        un[i][j] = u[i][j] + 0.1f * (u[i - 1][j] + u[i + 1][j] - 2.0f * u[i][j]) - 0.01f * u[i][j] * vn[i][j];
      }
    tmp = un; un = u; u = tmp;
    tmp = v; v = vn; vn = tmp;
  }
#pragma endscop
}

// CHECK:      form: several fields (2 fields, 2 statements per step)
// CHECK-NEXT: field: v[2][?][m] (2 planes: it and vn, pointers swapped after each step)
// CHECK-NEXT: field: u[2][?][m] (2 planes: it and un, pointers swapped after each step)
// CHECK:      statement 0 (nest 0): i from 1 to n - 2, j from 1 to m - 2, v[(t + 1) % 2][i][j] = v[t % 2][i][j] + {{.*}} + 0.01f * u[t % 2][i][j] * v[t % 2][i][j]
// CHECK-NEXT: statement 1 (nest 0): i from 1 to n - 2, j from 1 to m - 2, u[(t + 1) % 2][i][j] = u[t % 2][i][j] + {{.*}} - 0.01f * u[t % 2][i][j] * v[(t + 1) % 2][i][j]
