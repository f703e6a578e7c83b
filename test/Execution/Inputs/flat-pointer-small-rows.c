/* Flat pointers with rows of 3 cells (a compile-time length L) and reads
   two cells along k: in[((i - 1) * m + j + 1) * L + k + 2] is cell
   (i - 1, j + 1, k + 2), inside its row for every k the loop runs, not
   the next row's k - 1. Usage: flat-pointer-small-rows n m t0 T out.bin
   (both buffers, then 2 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM double
#endif
#define L 3

static void run(int t0, int T, int n, int m, ELEM *buf, ELEM *marks)
{
  ELEM *in = buf, *out = buf + (long)n * m * L;
#pragma scop
  for (int t = t0; t < t0 + T; t++) {
    for (int i = 2; i < n; i++)
      for (int j = 2; j < m - 1; j++)
        for (int k = 0; k < L - 2; k++)
          out[(i * m + j) * L + k] =
              0.5 * in[((i - 1) * m + j + 1) * L + k + 2]
            + 0.25 * in[((i - 2) * m + j - 2) * L + k + 1]
            + 0.125 * in[(i * m + j) * L + k];
    ELEM *tmp = in;
    in = out;
    out = tmp;
  }
#pragma endscop
  marks[0] = (ELEM)(in == buf ? 0 : 1);
  marks[1] = (ELEM)(out == buf ? 0 : 1);
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), t0 = atoi(argv[3]), T = atoi(argv[4]);
  long cells = (long)n * m * L;
  ELEM *buf = (ELEM *)new_planes(cells + 2, sizeof(ELEM));
  for (long c = 0; c < cells; c++)
    buf[cells + c] = buf[cells + 2 + c];
  run(t0, T, n, m, buf, buf + 2 * cells);
  return write_cells(argv[5], buf, sizeof(ELEM) * (2 * cells + 2));
}
