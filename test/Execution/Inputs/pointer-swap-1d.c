/* A 1D pointer swap: out = f(in), then the pointers swap; both buffers and
   which buffer each pointer ends on are written.
   Usage: pointer-swap-1d n T out.bin (both buffers, then 2 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, ELEM *buf, ELEM *marks)
{
  ELEM *in = buf, *out = buf + n;
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      out[i] = 0.3 * in[i - 1] + 0.45 * in[i] + 0.25 * in[i + 1];
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
  if (argc != 4)
    return 2;
  int n = atoi(argv[1]), T = atoi(argv[2]);
  ELEM *buf = (ELEM *)new_planes(n + 1, sizeof(ELEM));
  /* new_planes gave 2 x (n + 1) cells: move plane 1 up against plane 0 */
  for (long c = 0; c < n; c++)
    buf[n + c] = buf[n + 1 + c];
  run(T, n, buf, buf + 2 * (long)n);
  return write_cells(argv[3], buf, sizeof(ELEM) * (2 * (long)n + 2));
}
