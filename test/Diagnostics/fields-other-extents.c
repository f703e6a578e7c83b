// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// Fields of one time step over grids of different extents are refused at
// the first access of the field that differs, with its declaration.

void run(int T, int n, int m, double u[n][m], double v[n][m + 1]) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        u[i][j] = u[i][j] + 0.5 * v[i][j];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        v[i][j] = v[i][j] - 0.5 * u[i][j];
  }
#pragma endscop
}

// CHECK: fields-other-extents.c:10:35: error: the field 'v' has other extents than 'u'; an5dc needs every field of the time step over the same grid (declare them alike) [dimensionality]
// CHECK: fields-other-extents.c:5:47: note: 'v' is declared here
