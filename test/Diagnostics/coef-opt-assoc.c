// RUN: not %an5dc %s --opt=assoc -o %t.cu 2>&1 | FileCheck %s
// RUN: not %an5dc %s --kvec 4 -o %t.cu 2>&1 | FileCheck %s --check-prefix=KVEC
// The associative and vector-cell kernels do not read coefficient arrays:
// asked for, they are refused at the first coefficient read.

void run(int T, int n, float (*A)[n][n][n], const float (*c)[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          A[(t + 1) % 2][i][j][k] = A[t % 2][i - 1][j][k] + c[i][j][k] * A[t % 2][i][j][k + 1];
#pragma endscop
}

// CHECK: coef-opt-assoc.c:12:61: error: --opt=assoc does not apply to an update that reads a coefficient array or the time step (a term's factor depends on the cell or the step); use {{.*}} [opt-not-applicable]
// KVEC: coef-opt-assoc.c:12:61: error: --kvec 4 does not apply to an update that reads a coefficient array or the time step; drop --kvec [opt-not-applicable]
