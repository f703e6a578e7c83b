/* fields-swap-2d.c in 3D: two fields, each two arrays swapped through
   pointers after the nests (one temporary declared inside the loop), the
   second nest reading what the first wrote this step. Pointers to VLA
   planes. Usage: fields-swap-3d n m p T out.bin (the four arrays, then 4
   markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, int p, ELEM *buf, ELEM *marks)
{
  const long cells = (long)n * m * p;
  ELEM (*u)[m][p] = (ELEM (*)[m][p])buf;
  ELEM (*un)[m][p] = (ELEM (*)[m][p])(buf + cells);
  ELEM (*v)[m][p] = (ELEM (*)[m][p])(buf + 2 * cells);
  ELEM (*vn)[m][p] = (ELEM (*)[m][p])(buf + 3 * cells);
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < p - 1; k++)
          un[i][j][k] = u[i][j][k] + 0.1f * (u[i - 1][j][k] + u[i + 1][j][k]
                        + u[i][j - 1][k] + u[i][j + 1][k] + u[i][j][k - 1]
                        + u[i][j][k + 1] - 6.0f * u[i][j][k]) - 0.1f * v[i][j][k];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < p - 1; k++)
          vn[i][j][k] = 0.5f * v[i][j][k] + 0.25f * (un[i][j][k - 1] + un[i][j][k + 1]);
    ELEM (*tmp)[m][p] = u; u = un; un = tmp;
    tmp = v; v = vn; vn = tmp;
  }
#pragma endscop
  ELEM *const arrays[4] = {buf, buf + cells, buf + 2 * cells, buf + 3 * cells};
  ELEM *const ptrs[4] = {(ELEM *)u, (ELEM *)un, (ELEM *)v, (ELEM *)vn};
  for (int q = 0; q < 4; q++) {
    marks[q] = -1;
    for (int a = 0; a < 4; a++)
      if (ptrs[q] == arrays[a])
        marks[q] = (ELEM)a;
  }
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), p = atoi(argv[3]), T = atoi(argv[4]);
  const long cells = (long)n * m * p;
  ELEM *buf = (ELEM *)new_planes(2 * cells + 2, sizeof(ELEM));
  run(T, n, m, p, buf, buf + 4 * cells);
  return write_cells(argv[5], buf, sizeof(ELEM) * (4 * cells + 4));
}
