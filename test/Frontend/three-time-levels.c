// RUN: %an5dc %s --dump=stencil | FileCheck %s --check-prefix=STENCIL
// RUN: %an5dc %s --dump=analysis | FileCheck %s --check-prefix=ANALYSIS
// RUN: %an5dc %s --dump=plan -bT 4 -bS 64 --sl 32 | FileCheck %s --check-prefix=PLAN
// A scheme of second order in time (the wave equation): the write cycles
// through three planes, the previous step is read around the cell and the
// step before at the cell itself; the plan keeps level l in device plane
// l mod 6 (bT 4 + 2, rounded up to a multiple of 3).

void run(int T, int n, int m, float c, float A[3][n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 2) % 3][i][j] = 2 * A[(t + 1) % 3][i][j] - A[t % 3][i][j]
            + c * (A[(t + 1) % 3][i - 1][j] + A[(t + 1) % 3][i + 1][j]
                   + A[(t + 1) % 3][i][j - 1] + A[(t + 1) % 3][i][j + 1]
                   - 4 * A[(t + 1) % 3][i][j]);
#pragma endscop
}

// STENCIL: planes: 3 in turn
// STENCIL-NEXT: write: A[(t + 2) % 3][i][j]
// STENCIL-NEXT: reads: 7

// ANALYSIS: associative: no (three time levels)
// ANALYSIS: jacobi: yes
// ANALYSIS-NEXT: write plane: (t + 2) % 3
// ANALYSIS-NEXT: older-level reads: 1
// ANALYSIS-NEXT: bounds: proven

// PLAN: kernel: star
// PLAN: register ring: 3 rows per level
// PLAN: write plane: (t + 2) % 3
// PLAN-NEXT: time levels: 3 (level l in device plane l mod 6)
