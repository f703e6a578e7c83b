/* fields-swap-2d.c in 1D: two fields, each two flat arrays swapped through
   pointers after the nest that updates both. Usage: fields-swap-1d n T
   out.bin (the four arrays, then 5 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, ELEM *buf, ELEM *marks)
{
  ELEM *u = buf, *un = buf + n, *v = buf + 2 * n, *vn = buf + 3 * n;
  ELEM *tmp = NULL;
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++) {
      un[i] = 0.25f * u[i - 1] + 0.5f * u[i] + 0.25f * u[i + 1] - 0.1f * v[i];
      vn[i] = 0.5f * v[i] + 0.2f * (un[i] + u[i + 1]);
    }
    tmp = u; u = un; un = tmp;
    tmp = v; v = vn; vn = tmp;
  }
#pragma endscop
  ELEM *const arrays[4] = {buf, buf + n, buf + 2 * n, buf + 3 * n};
  ELEM *const ptrs[5] = {u, un, v, vn, tmp};
  for (int q = 0; q < 5; q++) {
    marks[q] = -1;
    for (int a = 0; a < 4; a++)
      if (ptrs[q] == arrays[a])
        marks[q] = (ELEM)a;
  }
}

int main(int argc, char **argv)
{
  if (argc != 4)
    return 2;
  int n = atoi(argv[1]), T = atoi(argv[2]);
  ELEM *buf = (ELEM *)new_planes(2 * (long)n + 3, sizeof(ELEM));
  run(T, n, buf, buf + 4 * (long)n);
  return write_cells(argv[3], buf, sizeof(ELEM) * (4 * (long)n + 5));
}
