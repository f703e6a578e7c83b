/* OpenMP directives on the spatial loops, as parallel CPU codes carry them:
   'omp parallel for' (with clauses, collapse(2)) on the outer loops and
   'omp simd' on the inner ones. Parsed with -fopenmp they become directive
   statements around the loops; an5dc looks through them. Default: two
   arrays in turn; -DPLANE: one array with a plane index.
   Usage: openmp-pragmas n m T out.bin */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

#ifdef PLANE
static void run(int T, int n, int m, ELEM A[2][n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
#pragma omp parallel for collapse(2)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = 0.1f * A[t % 2][i][j - 1] + 0.6f * A[t % 2][i][j]
                             + 0.3f * A[t % 2][i + 1][j];
#pragma endscop
}
#else
static void run(int T, int n, int m, ELEM A[n][m], ELEM B[n][m])
{
  int i, j;
#pragma scop
  for (int t = 0; t < T; t++) {
#pragma omp parallel for private(j) schedule(static)
    for (i = 1; i < n - 1; i++) {
#pragma omp simd
      for (j = 1; j < m - 1; j++)
        B[i][j] = 0.1f * A[i][j - 1] + 0.6f * A[i][j] + 0.3f * A[i + 1][j];
    }
#pragma omp parallel for private(j)
    for (i = 1; i < n - 1; i++)
#pragma omp simd
      for (j = 1; j < m - 1; j++)
        A[i][j] = 0.1f * B[i][j - 1] + 0.6f * B[i][j] + 0.3f * B[i + 1][j];
  }
#pragma endscop
}
#endif

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
#ifdef PLANE
  run(T, n, m, (void *)buf);
#else
  run(T, n, m, (void *)buf, (void *)(buf + (long)n * m));
#endif
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * n * m);
}
