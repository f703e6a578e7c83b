/* fields-flat-2d.c in 3D: a field through two flat pointers swapped after
   the nests (the temporary declared in the loop) and a field h updated in
   place through a flat pointer, reading what the first nest wrote this
   step. Indices spelled '(i * m + j) * p + k' and 'i * m * p + j * p + k'.
   Usage: fields-flat-3d n m p T out.bin (the three arrays, then 2 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, int p, ELEM *buf, ELEM *marks)
{
  const long cells = (long)n * m * p;
  ELEM *u = buf, *un = buf + cells, *h = buf + 2 * cells;
#pragma scop
  for (int t = 1; t <= T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < p - 1; k++)
          un[(i * m + j) * p + k] =
              u[(i * m + j) * p + k]
              + 0.1f * (u[((i - 1) * m + j) * p + k] + u[((i + 1) * m + j) * p + k]
                        + u[(i * m + j - 1) * p + k] + u[(i * m + j + 1) * p + k]
                        + u[(i * m + j) * p + k - 1] + u[(i * m + j) * p + k + 1]
                        - 6.0f * u[(i * m + j) * p + k])
              - 0.1f * h[i * m * p + j * p + k];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < p - 1; k++)
          h[i * m * p + j * p + k] = 0.5f * h[i * m * p + j * p + k]
              + 0.25f * (un[i * m * p + j * p + k - 1] + un[i * m * p + (j + 1) * p + k]);
    ELEM *tmp = u; u = un; un = tmp;
  }
#pragma endscop
  ELEM *const arrays[2] = {buf, buf + cells};
  ELEM *const ptrs[2] = {u, un};
  for (int q = 0; q < 2; q++) {
    marks[q] = -1;
    for (int a = 0; a < 2; a++)
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
  /* 3 n m p + 2 cells: three arrays and 2 markers (new_planes gives 2 x) */
  ELEM *buf = (ELEM *)new_planes((3 * cells + 2 + 1) / 2, sizeof(ELEM));
  run(T, n, m, p, buf, buf + 3 * cells);
  return write_cells(argv[5], buf, sizeof(ELEM) * (3 * cells + 2));
}
