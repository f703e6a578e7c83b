// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// A flat field read as rows of another length than its first access
// ('u[i * n + j]' beside 'u[i * m + j]'): refused at that index, since the
// field's cells would not be one grid.

void rd(int n, int m, int T, float *u, float *v) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        v[i * m + j] = v[i * m + j] + 0.1f * (u[i * m + j - 1] + u[i * n + j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        u[i * m + j] = u[i * m + j] - 0.2f * v[i * m + j];
  }
#pragma endscop
}

// CHECK: fields-flat-row-lengths.c:12:68: error: this index reads 'u' as rows of other lengths than its first access (m); every access of a flat field needs the same row lengths [two-arrays-mismatch]
