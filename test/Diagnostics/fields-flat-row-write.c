// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// A flat field written along one row by a nest of one loop (fdtd-2d's
// 'ey[0][j] = ...' through a flat pointer, 'ey[j]'): its index cannot be
// split into a subscript per dimension, so it is refused there, pointing to
// a pointer to rows.

void fdtd(int n, int m, int T, float *ey, float *hz, const float *src) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n; i++)
      for (int j = 0; j < m; j++)
        ey[i * m + j] = ey[i * m + j] - 0.5f * (hz[i * m + j] - hz[i * m + j - m]);
    for (int j = 0; j < m; j++)
      ey[j] = src[t];
    for (int i = 0; i < n - 1; i++)
      for (int j = 0; j < m; j++)
        hz[i * m + j] = hz[i * m + j] - 0.7f * ey[i * m + j + m];
  }
#pragma endscop
}

// CHECK: fields-flat-row-write.c:15:7: error: the flat pointer 'ey' is indexed in a nest of 1 loop; an5dc splits a flat field's index into one subscript per loop, so each nest that accesses it loops over every dimension of the grid (for a row or a cell written alone, declare 'ey' as a pointer to rows, 'float (*ey)[m]') [dimensionality]
