void gen(int T, int n, float (*A)[n][n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 6; i < n - 6; i++)
      for (int j = 6; j < n - 6; j++)
        for (int k = 1; k < n - 1; k++)
          A[(t + 1) % 2][i][j][k] = A[t % 2][i][j][k] + 0.1f * A[t % 2][i - 6][j - 6][k] * A[t % 2][i + 6][j + 6][k];
#pragma endscop
}
