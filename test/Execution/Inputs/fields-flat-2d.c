/* Two fields through flat pointers indexed 'u[i * m + j]': u and v, each
   two arrays whose pointers the time loop swaps after its nests; un from u
   and v, then vn from v and the new un (what the first nest wrote this
   step); a third field w updated in place, 'w[i * m + j] = w[...] + ...',
   reading the new vn. The index takes several spellings ('m * i + j',
   '(i + 1) * m + j', 'i * m - m + j'). The pointers' final values are
   recorded as which array each points to.
   Usage: fields-flat-2d n m T out.bin (the five arrays, then 5 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, ELEM *buf, ELEM *marks)
{
  const long cells = (long)n * m;
  ELEM *u = buf, *un = buf + cells, *v = buf + 2 * cells,
       *vn = buf + 3 * cells, *w = buf + 4 * cells;
  ELEM *tmp = NULL;
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        un[i * m + j] = u[i * m + j]
                        + 0.2f * (u[i * m - m + j] + u[(i + 1) * m + j]
                                  + u[m * i + j - 1] + u[i * m + j + 1]
                                  - 4.0f * u[i * m + j])
                        - 0.1f * u[i * m + j] * v[i * m + j];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        vn[i * m + j] = v[i * m + j]
                        + 0.1f * (v[i * m + j - 1] + v[i * m + j + 1]
                                  - 2.0f * v[i * m + j])
                        + 0.05f * un[i * m + j] * v[(i - 1) * m + j];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        w[i * m + j] = w[i * m + j] + 0.25f * (vn[i * m + j] - w[i * m + j]);
    tmp = u; u = un; un = tmp;
    tmp = v; v = vn; vn = tmp;
  }
#pragma endscop
  ELEM *const arrays[4] = {buf, buf + cells, buf + 2 * cells, buf + 3 * cells};
  ELEM *const ptrs[5] = {u, un, v, vn, tmp};
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
  /* 5 n m + 5 cells: five arrays and 5 markers (new_planes gives 2 x) */
  ELEM *buf = (ELEM *)new_planes((5 * cells + 5 + 1) / 2, sizeof(ELEM));
  run(T, n, m, buf, buf + 5 * cells);
  return write_cells(argv[4], buf, sizeof(ELEM) * (5 * cells + 5));
}
