// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// Fields of different extents: a read past the narrower field's last
// column (u has m columns, v m + 1) is refused against that field's own
// extents, not the grid's.

void run(int T, int n, int m, double u[n][m], double v[n][m + 1]) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m + 1; j++)
        v[i][j] = v[i][j] - 0.5 * u[i][j];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        u[i][j] = u[i][j] + 0.5 * v[i][j + 1];
  }
#pragma endscop
}

// CHECK: fields-other-extents-outside.c:12:35: error: this read is outside the field 'u'
