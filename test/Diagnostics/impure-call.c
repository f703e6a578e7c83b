// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Calls to functions not known to be pure are rejected.

#include <stdlib.h>
void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j] + rand();
#pragma endscop
}

// CHECK: impure-call.c:10:49: error: call to 'rand', which an5dc does not know to be pure; the update may call math functions such as sqrt, fabs, exp, pow, fmin and fmax (and their float forms sqrtf, ...), and functions defined in the program whose body is float or double locals and a return [impure-call]
