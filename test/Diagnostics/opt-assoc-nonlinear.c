// RUN: not %an5dc %s --opt=assoc -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// --opt=assoc needs a sum of terms that each read one row; the term that
// reads several rows (here a product of two rows) is named.

void run(int T, int n, int m, double (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j - 1] + A[t % 2][i - 1][j] * A[t % 2][i + 1][j];
#pragma endscop
}

// CHECK: opt-assoc-nonlinear.c:11:53: error: --opt=assoc needs an update that is a sum of terms each reading one row of the streaming dimension (optionally scaled by a factor that reads no cell), but this term reads several rows; use --opt=star (what --opt=auto picks) or --opt=none [opt-not-applicable]
