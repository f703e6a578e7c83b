/* The leapfrog wave equation through a pointer swap: `next` holds the
   level two steps back, read at the cell, and receives the new level; then
   cur and next swap. The pointers' final values are recorded as which
   buffer each points to.
   Usage: leapfrog-swap-3d n m l T out.bin (both buffers, then 2 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, int m, int l, ELEM *buf, ELEM *marks)
{
  ELEM (*cur)[m][l] = (ELEM (*)[m][l])buf;
  ELEM (*next)[m][l] = (ELEM (*)[m][l])(buf + (long)n * m * l);
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < l - 1; k++)
          next[i][j][k] = 1.98 * cur[i][j][k] - 0.99 * next[i][j][k]
              + 0.01 * (cur[i - 1][j][k] + cur[i + 1][j][k] + cur[i][j - 1][k]
                        + cur[i][j + 1][k] + cur[i][j][k - 1] + cur[i][j][k + 1]);
    ELEM (*tmp)[m][l] = cur;
    cur = next;
    next = tmp;
  }
#pragma endscop
  marks[0] = (ELEM)((ELEM *)cur == buf ? 0 : 1);
  marks[1] = (ELEM)((ELEM *)next == buf ? 0 : 1);
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), l = atoi(argv[3]), T = atoi(argv[4]);
  long cells = (long)n * m * l;
  ELEM *buf = (ELEM *)new_planes(cells + 1, sizeof(ELEM));
  /* new_planes gave 2 x (cells + 1): move plane 1 up against plane 0 */
  for (long c = 0; c < cells; c++)
    buf[cells + c] = buf[cells + 1 + c];
  run(T, n, m, l, buf, buf + 2 * cells);
  return write_cells(argv[5], buf, sizeof(ELEM) * (2 * cells + 2));
}
