/* A 1D stencil with a plane index, radius 2 on the left and 1 on the right,
   over a VLA pointer (an5dc plans it as 2D with one row).
   Usage: one-dimensional n T out.bin (both planes) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, ELEM (*A)[n])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 2; i < n - 1; i++)
      A[(t + 1) % 2][i] = 0.15 * A[t % 2][i - 2] + 0.25 * A[t % 2][i - 1]
                        + 0.4 * A[t % 2][i] + 0.2 * A[t % 2][i + 1];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 4)
    return 2;
  int n = atoi(argv[1]), T = atoi(argv[2]);
  ELEM *buf = (ELEM *)new_planes(n, sizeof(ELEM));
  run(T, n, (ELEM (*)[n])buf);
  return write_cells(argv[3], buf, sizeof(ELEM) * 2 * (long)n);
}
