/* Two fields, each two arrays whose pointers the time loop swaps after its
   nests through one temporary declared before the loop: un from u and v,
   then vn from v and the new un (what the first nest wrote this step). The
   time loop starts at FIRST (default 1; an expression of n or T makes it a
   run-time value). Pointers to VLA rows: no row count declared. The
   pointers' final values are recorded as which array each points to.
   Usage: fields-swap-2d n m T out.bin (the four arrays, then 5 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif
#ifndef FIRST
#define FIRST 1
#endif
/* -DSWAP_DO: each swap a macro, do { ... } while (0) around the copies. */
#ifdef SWAP_DO
#define SWAP(a, b) do { tmp = a; a = b; b = tmp; } while (0)
#else
#define SWAP(a, b) tmp = a; a = b; b = tmp
#endif

static void run(int T, int n, int m, ELEM *buf, ELEM *marks)
{
  const long cells = (long)n * m;
  ELEM (*u)[m] = (ELEM (*)[m])buf;
  ELEM (*un)[m] = (ELEM (*)[m])(buf + cells);
  ELEM (*v)[m] = (ELEM (*)[m])(buf + 2 * cells);
  ELEM (*vn)[m] = (ELEM (*)[m])(buf + 3 * cells);
  ELEM (*tmp)[m] = NULL;
#pragma scop
  for (int t = FIRST; t <= T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        un[i][j] = u[i][j] + 0.2f * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1]
                                     + u[i][j + 1] - 4.0f * u[i][j])
                   - 0.1f * u[i][j] * v[i][j];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        vn[i][j] = v[i][j] + 0.1f * (v[i][j - 1] + v[i][j + 1] - 2.0f * v[i][j])
                   + 0.05f * un[i][j] * v[i][j];
    SWAP(u, un);
    SWAP(v, vn);
  }
#pragma endscop
  ELEM *const arrays[4] = {buf, buf + cells, buf + 2 * cells, buf + 3 * cells};
  ELEM *const ptrs[5] = {(ELEM *)u, (ELEM *)un, (ELEM *)v, (ELEM *)vn,
                         (ELEM *)tmp};
  for (int p = 0; p < 5; p++) {
    marks[p] = -1;
    for (int a = 0; a < 4; a++)
      if (ptrs[p] == arrays[a])
        marks[p] = (ELEM)a;
  }
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  const long cells = (long)n * m;
  /* 2 x (2 n m + 3) cells of initial values: four arrays and 5 markers */
  ELEM *buf = (ELEM *)new_planes(2 * cells + 3, sizeof(ELEM));
  run(T, n, m, buf, buf + 4 * cells);
  return write_cells(argv[4], buf, sizeof(ELEM) * (4 * cells + 5));
}
