/* Coefficient arrays with a 1D pointer swap: a per-cell diffusivity d read
   at i and i + 1 (one element past the cells, through a pointer) and a
   constant-index source strength. Usage: coef-swap-1d n T out.bin (both
   buffers, then 2 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void run(int T, int n, ELEM *buf, ELEM *marks, const ELEM *d)
{
  ELEM *in = buf, *out = buf + n;
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      out[i] = in[i] + d[i] * (in[i - 1] - in[i]) + d[i + 1] * (in[i + 1] - in[i])
             + d[0] * 0.01f;
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
  for (long c = 0; c < n; c++)
    buf[n + c] = buf[n + 1 + c];
  ELEM *d = (ELEM *)malloc(sizeof(ELEM) * n);
  for (int i = 0; i < n; i++)
    d[i] = (ELEM)(0.1 + 0.2 * ((i * 7) % 5) / 5.0);
  run(T, n, buf, buf + 2 * (long)n, d);
  return write_cells(argv[3], buf, sizeof(ELEM) * (2 * (long)n + 2));
}
