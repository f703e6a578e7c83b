// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Two statements in the innermost loop, the second a sum into another
// array: the time step writes two arrays, but the second is no field over
// the grid (a reduction), refused at its write.

void run(int T, int n, int m, float (*A)[n][m], float *s) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        A[(t + 1) % 2][i][j] = A[t % 2][i - 1][j];
        s[0] = A[t % 2][i][j];
      }
#pragma endscop
}

// CHECK: fields-reduction-array.c:12:9: error: the field 's' has 1 dimension besides its planes, 'A' 2; every array a time step writes is a field over the same grid (a sum or other reduction into an array is not a stencil update) [dimensionality]
