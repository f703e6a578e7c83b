/* Int locals in the innermost loop, as flat-pointer codes index: 'int c =
   i * m + j;' then in[c - 1], in[c + m], ...; an int constant used as a
   value ('const int two = 2;'), and an index function with an int local
   of its own. -DTHREE: the same in 3D, 'int c = (i * m + j) * l + k;'.
   Usage: int-locals n m l T out.bin (both buffers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static inline int above(int m, int c)
{
  int up = c - m;
  return up;
}

static void run(int T, int n, int m, int l, ELEM *in, ELEM *out)
{
  ELEM *tmp;
#pragma scop
  for (int t = 0; t < T; t++) {
#ifdef THREE
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++) {
          const int two = 2;
          int c = (i * m + j) * l + k;
          int p = m * l;
          ELEM s = in[c - 1] + in[c + 1] + in[c - l] + in[c + l];
          s += in[c - p] + in[above(p, c + 2 * p)];
          out[c] = 0.1f * s + 0.4f * in[c] / two;
        }
#else
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        const int two = 2;
        int c = i * m + j;
        ELEM s = in[c - 1] + in[c + 1] + in[above(m, c)] + in[c + m];
        out[c] = 0.15f * s + 0.4f * in[c] / two;
      }
#endif
    tmp = in;
    in = out;
    out = tmp;
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
#ifndef THREE
  l = 1;
#endif
  long cells = (long)n * m * l;
  ELEM *buf = (ELEM *)new_planes(cells, sizeof(ELEM));
  run(T, n, m, l, buf, buf + cells);
  return write_cells(argv[5], buf, sizeof(ELEM) * 2 * cells);
}
