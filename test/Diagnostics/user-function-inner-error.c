// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// An error inside an inlined function is reported where it stands, with
// the call that led there.

static float far(int m, float (*a)[m], int i, int j)
{
  return a[i][j * j];
}

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] + far(m, A[t % 2], i, j);
#pragma endscop
}

// CHECK: user-function-inner-error.c:7:15: error: expression is not affine: it multiplies two variables{{.*}} [non-affine]
// CHECK: user-function-inner-error.c:15:49: note: in the call of 'far' here
