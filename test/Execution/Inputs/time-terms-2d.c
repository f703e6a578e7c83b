/* Terms that depend on the time step only: a source strength src[t] and a
   damping amp[t + 1] (arrays read at the step), and the step itself as a
   value. The time loop starts at t0. Usage: time-terms-2d n m t0 T out.bin */
#include "common.h"

#ifdef USE_DOUBLE
#define ELEM double
#else
#define ELEM float
#endif

static void run(int t0, int T, int n, int m, ELEM (*A)[n][m], const ELEM *src,
                const double *amp)
{
#pragma scop
  for (int t = t0; t < t0 + T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = amp[t + 1] * (0.3f * A[t % 2][i][j]
            + 0.2f * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j])
            + 0.15f * (A[t % 2][i][j - 1] + A[t % 2][i][j + 1]))
            + src[t] + 0.001f * t;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), t0 = atoi(argv[3]), T = atoi(argv[4]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
  ELEM *src = (ELEM *)malloc(sizeof(ELEM) * (t0 + T + 1));
  double *amp = (double *)malloc(sizeof(double) * (t0 + T + 2));
  for (int t = 0; t <= t0 + T; t++)
    src[t] = (ELEM)(0.01 * ((t * 5) % 7));
  for (int t = 0; t <= t0 + T + 1; t++)
    amp[t] = 0.9 + 0.02 * (t % 4);
  run(t0, T, n, m, (void *)buf, src, amp);
  return write_cells(argv[5], buf, sizeof(ELEM) * 2 * n * m);
}
