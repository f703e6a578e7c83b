// RUN: %an5dc %s --dump=analysis 2>&1 | FileCheck %s
// Loop bounds that do not follow the array's extent give a warning, not an
// error: the read is in bounds for some sizes.
#define NX 512
float A[2][NX][NX];

void run(int T, int n) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = 0.5f * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j]);
#pragma endscop
}

// CHECK: bounds-unproven-warning.c:[[@LINE-4]]:{{[0-9]+}}: warning: cannot prove this write stays inside 'A' for every size
// CHECK: bounds: not proven
