/* A damped wave in 1D (three time levels) over a VLA pointer, radius 2.
   Usage: wave-1d n T out.bin (all three planes) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, ELEM (*u)[n])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int x = 2; x < n - 2; x++)
      u[(t + 2) % 3][x] = (2 - 0.1) * u[(t + 1) % 3][x]
          - (1 - 0.1) * u[t % 3][x]
          + 0.05 * (u[(t + 1) % 3][x - 2] - u[(t + 1) % 3][x + 2])
          + 0.2 * (u[(t + 1) % 3][x - 1] + u[(t + 1) % 3][x + 1]
                   - 2 * u[(t + 1) % 3][x]);
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 4)
    return 2;
  int n = atoi(argv[1]), T = atoi(argv[2]);
  ELEM *buf = (ELEM *)new_three_planes(n, sizeof(ELEM));
  run(T, n, (ELEM (*)[n])buf);
  return write_cells(argv[3], buf, sizeof(ELEM) * 3 * (long)n);
}
