// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// A periodic index wraps around the grid: refused at the index, saying what
// an5dc accepts instead (fixed boundary cells, constant offsets).

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 0; j < m; j++)
        A[(t + 1) % 2][i][j] = 0.5f * (A[t % 2][i][(j + 1) % m] + A[t % 2][i - 1][j]);
#pragma endscop
}

// CHECK: periodic-index.c:11:52: error: '(j + 1) % m' wraps around: periodic boundaries are not supported; an5dc keeps the boundary cells fixed and reads at constant offsets from the cell ('j + 1', 'j - 1'), with the loops leaving the boundary out [non-affine]
// CHECK-NEXT: A[(t + 1) % 2][i][j] = 0.5f * (A[t % 2][i][(j + 1) % m] + A[t % 2][i - 1][j]);
// CHECK-NEXT: ^~~~~~~~~~~
