// RUN: not %an5dc %s --opt=assoc -o %t.cu 2>&1 | FileCheck %s
// RUN: %an5dc %s --opt=assoc --fast-math -o %t.cu
// --opt=assoc refuses a factor times a sum over several rows unless
// --fast-math allows distributing the factor; the error says so.

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.5f * A[t % 2][i][j] + 0.1f * (A[t % 2][i - 1][j - 1] + A[t % 2][i + 1][j + 1]);
#pragma endscop
}

// CHECK: opt-assoc-fast-math-hint.c:11:56: error: --opt=assoc needs an update that is a sum of terms each reading one row of the streaming dimension (optionally scaled by a factor that reads no cell), but this term reads several rows (--fast-math would distribute its factor over the sum, reassociating it); use --opt=none (what --opt=auto picks) [opt-not-applicable]
