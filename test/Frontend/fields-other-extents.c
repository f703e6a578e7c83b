// RUN: %an5dc %s --dump=stencil | FileCheck %s
// Fields of one time step over grids of different extents (v one column
// wider than u) are accepted: each keeps its own extents, and each access is
// checked against them.

void run(int T, int n, int m, double u[n][m], double v[n][m + 1]) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        u[i][j] = u[i][j] + 0.5 * v[i][j + 1];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m; j++)
        v[i][j] = v[i][j] - 0.5 * u[i][j - 1];
  }
#pragma endscop
}

// CHECK:      form: several fields (2 fields, 2 statements per step)
// CHECK-NEXT: field: u[n][m] (updated in place)
// CHECK-NEXT: field: v[n][m + 1] (updated in place)
