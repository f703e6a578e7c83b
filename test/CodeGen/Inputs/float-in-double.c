/* A double stencil whose update computes partly in float (the random
   tester's seed 2700, program 376: on an H200 nvcc contracted the float
   product and sum into a float FMA, 3.7e-9 from the C loop). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#define N 4

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s T OUT\n", argv[0]);
    return 2;
  }
  int T = atoi(argv[1]);
  const char *out = argv[2];
  long cells = (long)N;
  static double A[2][N];
  double *buf = &A[0][0];
  for (long harness_cell = 0; harness_cell < 2 * cells; harness_cell++)
    buf[harness_cell] = (double)(harness_cell < cells ? ((harness_cell * 7 + 3) % 17) / 16.0 + 0.25 : ((harness_cell * 5 + 1) % 11) / 16.0 - 0.25);
#pragma scop
  for (int t = 0; t < T; t += 1)
    for (int i = 3; i < N; i = i + 1)
      A[(t + 2) % 2][i] = 0.001f + 0.155f * (float)A[(t + 1) % 2][i - 1] - 0.483f * tan(0.5 * A[(t + 1) % 2][i - 3]) + 0.36f * A[(t + 1) % 2][i - 2];
#pragma endscop
  FILE *f = fopen(out, "wb");
  if (f == NULL || fwrite(buf, sizeof(double), 2 * cells, f) != (size_t)(2 * cells) || fclose(f) != 0)
    return 1;
  return 0;
}
