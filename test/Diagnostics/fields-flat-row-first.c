// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// fdtd-2d's order through flat pointers: the row 'ey[j]' is written by a
// nest of one loop before a nest of two indexes 'ey' as a grid. The grid
// index is refused, pointing to a pointer to rows.

void fdtd(int n, int m, int T, float *ey, float *hz, const float *src) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int j = 0; j < m; j++)
      ey[j] = src[t];
    for (int i = 1; i < n; i++)
      for (int j = 0; j < m; j++)
        ey[i * m + j] = ey[i * m + j] - 0.5f * (hz[i * m + j] - hz[i * m + j - m]);
    for (int i = 0; i < n - 1; i++)
      for (int j = 0; j < m; j++)
        hz[i * m + j] = hz[i * m + j] - 0.7f * ey[i * m + j + m];
  }
#pragma endscop
}

// CHECK: fields-flat-row-first.c:14:9: error: the flat pointer 'ey' is indexed as a grid of 2 dimensions here, but an earlier nest of fewer loops accessed it as a row; an5dc splits a flat field's index into one subscript per loop, so declare 'ey' as a pointer to rows, 'float (*ey)[m]' and index it 'ey[i][j]' and 'ey[0][j]' [dimensionality]
