// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// Bit operations are not part of the update language (comparisons and
// the conditional operator are).

void run(int T, int n, int m, float (*A)[n][m], int mask) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = ((mask & 1) ? 0.5f : 0.25f) * A[t % 2][i][j];
#pragma endscop
}

// CHECK: bit-operator.c:10:34: error: operator '&' is not supported in the update; an5dc handles + - * /, unary minus, comparisons, '&&', '||', '!', 'c ? a : b', casts, parentheses, literals, numeric variables, reads of the stencil array and of read-only coefficient arrays, and math calls [unsupported-expression]
