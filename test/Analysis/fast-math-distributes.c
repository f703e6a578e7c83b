// RUN: %an5dc %s --dump=analysis | FileCheck %s --check-prefix=EXACT
// RUN: %an5dc %s --dump=analysis --fast-math | FileCheck %s --check-prefix=FAST
// RUN: %an5dc %s --dump=plan | FileCheck %s --check-prefix=PLAN-EXACT
// RUN: %an5dc %s --dump=plan --fast-math | FileCheck %s --check-prefix=PLAN-FAST
// A factor times a sum whose terms read several rows (and diagonally, so the
// star kernel does not apply) is associative only when the factor may be
// distributed over the sum, which reassociates it: under --fast-math, and
// then --opt=auto picks the associative kernel.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.4f * A[t % 2][i][j] + 0.2f * (A[t % 2][i - 1][j - 1] + A[t % 2][i][j + 1] - A[t % 2][i + 1][j + 1]);
#pragma endscop
}

// EXACT: math: exact (IEEE, in the order written)
// EXACT: diagonal-free: no
// EXACT: associative: no
// FAST: math: fast (--fast-math: reassociation, approximate division and sqrt)
// FAST: diagonal-free: no
// FAST: associative: yes (4 terms over 3 planes, 3 with a factor distributed)
// PLAN-EXACT: kernel: none
// PLAN-EXACT-NOT: math:
// PLAN-FAST: kernel: assoc
// PLAN-FAST: math: fast (nvcc --use_fast_math; the update may be reassociated)
