/* A function called in a loop over the radius, its offset passed as an
   argument, with a loop of step 2 inside ('for (int q = -1; q <= 1; q +=
   2)'): both loops unrolled, the caller's iterator read through the
   parameter. Usage: user-functions-radius n m T out.bin */
#include "common.h"
#ifndef ELEM
#define ELEM float
#endif
static const ELEM w[4] = {0.4f, 0.1f, 0.05f, 0.025f};
static inline ELEM pair(int m, ELEM (*a)[m], int i, int j, int r)
{
  ELEM s = 0;
  for (int q = -1; q <= 1; q += 2)
    s += a[i + q * r][j] + a[i][j + q * r];
  return s;
}
static void run(int T, int n, int m, ELEM A[2][n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 3; i < n - 3; i++)
      for (int j = 3; j < m - 3; j++) {
        ELEM acc = w[0] * A[t % 2][i][j];
        for (int r = 1; r <= 3; r++)
          acc += w[r] * pair(m, A[t % 2], i, j, r);
        A[(t + 1) % 2][i][j] = acc;
      }
#pragma endscop
}
int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
  run(T, n, m, (void *)buf);
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * n * m);
}
