// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// A coefficient array read at a subscript that is not a spatial iterator
// plus a constant (a reflected row).

void run(int T, int n, float (*A)[n][n], float (*c)[n], float (*d)[n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = c[i][j] * A[t % 2][i][j] + d[n - 1 - i][j];
#pragma endscop
}

// CHECK: coef-subscripts.c:10:61: error: the coefficient array 'd' is read at '-i + n - 1'; each subscript of a coefficient array must be a loop iterator plus a constant, as 'j + 1' or 't', or a constant [coefficient-index]
