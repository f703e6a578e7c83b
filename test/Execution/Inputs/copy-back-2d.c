/* Jacobi with a copy-back: each time iteration computes B from A, then
   copies B's computed cells back into A. B's boundary is never written and
   must end as it started; A's boundary is what every step reads. The
   update is asymmetric and adds a term in t, so that a swapped plane, a
   transposed offset or a wrong step number shows. -DROWS: pointers to
   rows (no row count declared); -DFLAT: flat pointers, A[i * m + j].
   Usage: copy-back-2d n m t0 T out.bin (writes A, then B) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

#if defined(FLAT)
#define ARRAY(X) ELEM *X
#define AT(X, i, j) X[(i) * m + (j)]
#elif defined(ROWS)
#define ARRAY(X) ELEM (*X)[m]
#define AT(X, i, j) X[i][j]
#else
#define ARRAY(X) ELEM X[n][m]
#define AT(X, i, j) X[i][j]
#endif

static void run(int t0, int T, int n, int m, ARRAY(A), ARRAY(B))
{
#pragma scop
  for (int t = t0; t < t0 + T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        AT(B, i, j) = 0.1 * AT(A, i, j - 1) + 0.2 * AT(A, i, j)
                    + 0.3 * AT(A, i, j + 1) + 0.15 * AT(A, i + 1, j)
                    + 0.25 * AT(A, i - 1, j) + 0.001 * t;
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        AT(A, i, j) = AT(B, i, j);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), t0 = atoi(argv[3]), T = atoi(argv[4]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
  run(t0, T, n, m, (void *)buf, (void *)(buf + (long)n * m));
  return write_cells(argv[5], buf, sizeof(ELEM) * 2 * n * m);
}
