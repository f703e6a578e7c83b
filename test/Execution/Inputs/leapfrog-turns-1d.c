/* The leapfrog wave equation as two arrays in turn: each loop nest writes
   the array that holds the level two steps back, reading it at the cell,
   and the other around the cell.
   Usage: leapfrog-turns-1d n T out.bin (both arrays) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, ELEM A[n], ELEM B[n])
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      B[i] = 2 * A[i] - B[i] + 0.25 * (A[i - 1] - 2 * A[i] + A[i + 1]);
    for (int i = 1; i < n - 1; i++)
      A[i] = 2 * B[i] - A[i] + 0.25 * (B[i - 1] - 2 * B[i] + B[i + 1]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 4)
    return 2;
  int n = atoi(argv[1]), T = atoi(argv[2]);
  ELEM *buf = (ELEM *)new_planes(n, sizeof(ELEM));
  run(T, n, buf, buf + n);
  return write_cells(argv[3], buf, sizeof(ELEM) * 2 * (long)n);
}
