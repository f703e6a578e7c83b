// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// A coefficient array read through one flat subscript: refused with the
// form that is accepted.

void run(int T, int n, int m, float (*A)[n][m], const float *c) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = c[i * m + j] * A[t % 2][i][j];
#pragma endscop
}

// CHECK: coef-flat-index.c:10:34: error: the coefficient array 'c' is read with one flat subscript; an5dc reads coefficient arrays with one subscript per dimension: declare it as a pointer to rows, as 'const float (*c)[m]', and read 'c[i][j]' [coefficient-index]
