/* The wave equation through three pointers rotated after each step:
   next = f(cur around the cell, prev at it); then prev <- cur <- next <-
   prev through tmp (declared before the loop, so the program reads it
   after). The pointers' final values are recorded as which buffer each
   points to.
   Usage: wave-rotate-2d n m T out.bin (the three buffers, then 4 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static ELEM which(ELEM (*p)[1], ELEM *buf, long cells)
{
  return p == NULL ? -1 : (ELEM)(((ELEM *)p - buf) / cells);
}

static void run(int T, int n, int m, ELEM *buf, ELEM *marks)
{
  long cells = (long)n * m;
  ELEM (*prev)[m] = (ELEM (*)[m])buf;
  ELEM (*cur)[m] = (ELEM (*)[m])(buf + cells);
  ELEM (*next)[m] = (ELEM (*)[m])(buf + 2 * cells);
  ELEM (*tmp)[m] = NULL;
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        next[i][j] = 2 * cur[i][j] - prev[i][j]
            + 0.2 * (cur[i - 1][j] + cur[i + 1][j] + cur[i][j - 1]
                     + cur[i][j + 1] - 4 * cur[i][j]);
    tmp = prev;
    prev = cur;
    cur = next;
    next = tmp;
  }
#pragma endscop
  marks[0] = which((ELEM (*)[1])prev, buf, cells);
  marks[1] = which((ELEM (*)[1])cur, buf, cells);
  marks[2] = which((ELEM (*)[1])next, buf, cells);
  marks[3] = which((ELEM (*)[1])tmp, buf, cells);
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  long cells = (long)n * m;
  ELEM *buf = (ELEM *)new_three_planes(cells + 2, sizeof(ELEM));
  /* new_three_planes gave 3 x (cells + 2): planes 1 and 2 against plane 0 */
  for (int p = 1; p < 3; p++)
    for (long c = 0; c < cells; c++)
      buf[p * cells + c] = buf[p * (cells + 2) + c];
  run(T, n, m, buf, buf + 3 * cells);
  return write_cells(argv[4], buf, sizeof(ELEM) * (3 * cells + 4));
}
