// RUN: %an5dc %s --dump=scop | FileCheck %s
// The isl model of j2d5pt: domain, schedule, accesses and value-based flow
// whose time distance is one step.

void j2d5pt(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = (5.1f * A[t % 2][i - 1][j] + 12.1f * A[t % 2][i][j - 1] + 15.0f * A[t % 2][i][j] + 12.2f * A[t % 2][i][j + 1] + 5.2f * A[t % 2][i + 1][j]) / 118;
#pragma endscop
}

// CHECK-LABEL: scop
// CHECK-NEXT: domain: [T, n, m] -> { S[t, i, j] : 0 <= t < T and 0 < i <= -2 + n and 0 < j <= -2 + m }
// CHECK-NEXT: schedule: { S[t, i, j] -> [t, i, j] }
// CHECK-NEXT: write: [T, n, m] -> { S[t, i, j] -> A[o0, i, j] : (1 + t + o0) mod 2 = 0
// CHECK: reads:
// CHECK-NEXT: [T, n, m] -> { S[t, i, j] -> A[o0, -1 + i, j] : (t + o0) mod 2 = 0
// CHECK: extent: [T, n, m] -> { A[x0, x1, x2] : 0 <= x0 <= 1 and 0 <= x1 < n and 0 <= x2 < m }
// CHECK: flow: {{.*}}S[t, i, j] -> S[t' = 1 + t, i' = 1 + i, j' = j]
// CHECK: flow distances: [T, n, m] -> { S[t = 1, i, j] :
// CHECK: same-step conflicts: [T, n, m] -> { }
