// RUN: %an5dc %s --dump=stencil | FileCheck %s
// RUN: %an5dc %s --dump=scop | FileCheck %s --check-prefix=SCOP
// Arrays the scop reads and never writes are coefficient arrays: each
// with its declared extents (a pointer's first unknown), each read with
// its subscripts as written; the analysis keeps the associative kernel off.

void run(int T, int n, int m, float (*A)[n][m], const float (*c)[m],
         const double *w) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = c[i][j] * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j])
                             + w[j + 1] * A[t % 2][i][j] + c[i - 1][j];
#pragma endscop
}

// CHECK:      reads: 3
// CHECK-NEXT: coefficient array: c[?][m] (pointer to array)
// CHECK-NEXT: coefficient array: w[?] (flat pointer)
// CHECK-NEXT: coefficient reads: c[i][j] w[j + 1] c[i - 1][j]
// CHECK-NEXT: update: c[i][j] * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j]) + w[j + 1] * A[t % 2][i][j] + c[i - 1][j]
// CHECK:      associative: no (reads coefficient arrays)
// CHECK-NEXT: coefficient arrays: 2 (3 distinct elements per cell, 4 bytes per cell from memory)

// SCOP:      coefficient reads:
// SCOP-NEXT:   [T, n, m] -> { S[t, i, j] -> c[i, j] : {{.*}} }
// SCOP-NEXT:   [T, n, m] -> { S[t, i, j] -> w[1 + j] : {{.*}} }
// SCOP-NEXT:   [T, n, m] -> { S[t, i, j] -> c[-1 + i, j] : {{.*}} }
// SCOP-NEXT: coefficient extents:
// SCOP-NEXT:   [T, n, m] -> { c[x0, x1] : x0 >= 0 and 0 <= x1 < m }
// SCOP-NEXT:   [T, n, m] -> { w[x0] : x0 >= 0 }
