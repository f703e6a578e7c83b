// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A function defined in another file cannot be looked into.

float smooth(float a, float b);

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = smooth(A[t % 2][i][j], A[t % 2][i][j + 1]);
#pragma endscop
}

// CHECK: user-function-no-body.c:11:32: error: call to 'smooth', which an5dc does not know to be pure; the update may call math functions such as sqrt, fabs, exp, pow, fmin and fmax (and their float forms sqrtf, ...), and functions defined in the program whose body is float or double locals and a return [impure-call]
