/* Scalars of several types, one named like a variable of the generated
   kernels (grid), iterators declared before the nest. */
void run(int T, int n, int m, float (*A)[n][m], float grid, double w)
{
  int t, i, j;
  const int shift = 1;
#pragma scop
  for (t = 0; t < T; t++)
    for (i = shift; i < n - 1; i++)
      for (j = 1; j <= m - 2; j++)
        A[(t + 1) % 2][i][j] = grid * A[t % 2][i][j] + w * (A[t % 2][i - 1][j] + A[t % 2][i][j + 1]);
#pragma endscop
}
