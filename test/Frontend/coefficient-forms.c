// RUN: %an5dc %s --dump=stencil | FileCheck %s
// Coefficients as #defines, const locals and scalar parameters.
#define CW 0.2f

void run(int T, int n, int m, float (*A)[n][m], float ce) {
  const float cc = 0.4f;
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = cc * A[t % 2][i][j] + CW * A[t % 2][i][j - 1] + ce * A[t % 2][i][j + 1];
#pragma endscop
}

// CHECK: scalars: [float cc, float ce]
// CHECK: update: cc * A[t % 2][i][j] + 0.2f * A[t % 2][i][j - 1] + ce * A[t % 2][i][j + 1]
