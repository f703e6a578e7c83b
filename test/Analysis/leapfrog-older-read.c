// RUN: %an5dc %s --dump=analysis | FileCheck %s
// RUN: %an5dc %s --dump=plan -bT 4 -bS 64 --sl 32 | FileCheck %s --check-prefix=PLAN
// Two planes, the written one also read at the cell: the value it held two
// steps back (the leapfrog form of the wave equation), a third time level;
// the device keeps level l in plane l mod 6 (bT 4 + 2, a multiple of 2).

void run(int T, int n, int m, float c, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 2 * A[t % 2][i][j] - A[(t + 1) % 2][i][j]
            + c * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j - 1]
                   + A[t % 2][i][j + 1] - 4 * A[t % 2][i][j]);
#pragma endscop
}

// CHECK: associative: no (three time levels)
// CHECK: jacobi: yes
// CHECK-NEXT: write plane: (t + 1) % 2
// CHECK-NEXT: older-level reads: 1
// CHECK-NEXT: bounds: proven

// PLAN: write plane: (t + 1) % 2
// PLAN-NEXT: time levels: 3 (level l in device plane l mod 6)
