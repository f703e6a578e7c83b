/* A pointer swap of flat pointers in 3D, in[(i * m + j) * P + k], with a
   run-time row length m and a compile-time one P (so some offsets are
   plain constants: (i * m + j + 1) * P + k is j + 1, not k + P); tmp is
   declared in the loop. Usage: pointer-swap-flat-3d n m t0 T out.bin (both
   buffers, then 2 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM double
#endif
#define P 9

static void run(int t0, int T, int n, int m, ELEM *buf, ELEM *marks)
{
  ELEM *in = buf, *out = buf + (long)n * m * P;
#pragma scop
  for (int t = t0; t < t0 + T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int k = 1; k < P - 1; k++)
          out[(i * m + j) * P + k] =
              0.25 * in[(i * m + j) * P + k]
            + 0.125 * (in[((i - 1) * m + j) * P + k] + in[((i + 1) * m + j) * P + k])
            + 0.1 * (in[(i * m + j - 1) * P + k] + in[(i * m + j + 1) * P + k])
            + 0.15 * (in[(i * m + j) * P + k - 1] + in[(i * m + j) * P + k + 1]);
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
  long cells = (long)n * m * P;
  ELEM *buf = (ELEM *)new_planes(cells + 2, sizeof(ELEM));
  for (long c = 0; c < cells; c++)
    buf[cells + c] = buf[cells + 2 + c];
  run(t0, T, n, m, buf, buf + 2 * cells);
  return write_cells(argv[5], buf, sizeof(ELEM) * (2 * cells + 2));
}
