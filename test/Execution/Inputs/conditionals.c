/* Conditionals in the update, as upwind and limited schemes write them: an
   upwind difference chosen by the sign of a velocity field (a coefficient
   array), a minmod limiter in a function of the program ('a * b <= 0 ? 0 :
   (fabsf(a) < fabsf(b) ? a : b)'), a clamp with '&&' and '!', and a
   comparison of a float with a double. -DIFS: the same with ifs, the
   limiter's first case an early return, its second an assignment under an
   if, the clamp 'if (next > 1.5f) next = 1.5f; else if ...'.
   Usage: conditionals n m T out.bin */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

#ifdef IFS
static inline ELEM minmod(ELEM a, ELEM b)
{
  ELEM m = b;
  if (a * b <= 0)
    return 0;
  if (fabs(a) < fabs(b))
    m = a;
  return m;
}
#else
static inline ELEM minmod(ELEM a, ELEM b)
{
  return a * b <= 0 ? 0 : (fabs(a) < fabs(b) ? a : b);
}
#endif

static void run(int T, int n, int m, ELEM A[2][n][m], const ELEM (*u)[m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 2; i < n - 2; i++)
      for (int j = 2; j < m - 2; j++) {
        ELEM c = A[t % 2][i][j];
        ELEM up = u[i][j] > 0 ? c - A[t % 2][i - 1][j]
                              : A[t % 2][i + 1][j] - c;
        ELEM lim = minmod(A[t % 2][i][j + 1] - c, c - A[t % 2][i][j - 1]);
        ELEM next = c - 0.3f * u[i][j] * up - 0.1f * lim +
                    0.05f * (A[t % 2][i + 2][j] - 2 * c + A[t % 2][i - 2][j]);
#ifdef IFS
        if (next > 1.5f)
          next = 1.5f;
        else if (next < -1.5)
          next = -1.5f;
        A[(t + 1) % 2][i][j] = next;
#else
        A[(t + 1) % 2][i][j] =
            !(next > -1.5 && next < 1.5) ? (next > 0 ? 1.5f : -1.5f) : next;
#endif
      }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
  ELEM *u = (ELEM *)malloc(sizeof(ELEM) * (long)n * m);
  for (long c = 0; c < (long)n * m; c++)
    u[c] = (ELEM)((c * 13 % 7) - 3) * (ELEM)0.3;
  for (long c = 0; c < 2L * n * m; c++)
    buf[c] = buf[c] * 4 - 2; /* some cells outside [-1.5, 1.5] */
  run(T, n, m, (void *)buf, (void *)u);
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * n * m);
}
