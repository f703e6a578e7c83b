/* Terms of the step in a 1D pointer swap from t0: the device counts
   steps from 0, the update reads f[t + 1] and t as the C loop has them.
   Usage: time-terms-swap n t0 T out.bin (both buffers, then 2 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static void swap1d(int t0, int T, int n, ELEM *buf, ELEM *marks, const ELEM *f)
{
  ELEM *in = buf, *out = buf + n;
#pragma scop
  for (int t = t0; t < t0 + T; t++) {
    for (int i = 1; i < n - 1; i++)
      out[i] = 0.3f * in[i - 1] + 0.4f * in[i] + 0.3f * in[i + 1] + f[t + 1] - 0.01f * t;
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
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), t0 = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_planes(n + 1, sizeof(ELEM));
  for (long c = 0; c < n; c++)
    buf[n + c] = buf[n + 1 + c];
  ELEM *f = (ELEM *)malloc(sizeof(ELEM) * (t0 + T + 2));
  for (int t = 0; t < t0 + T + 2; t++)
    f[t] = (ELEM)(0.001 * ((t * 3) % 5));
  swap1d(t0, T, n, buf, buf + 2 * (long)n, f);
  return write_cells(argv[4], buf, sizeof(ELEM) * (2 * (long)n + 2));
}
