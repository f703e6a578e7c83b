/* Local scalars set and then updated before the assignment, as hand-written
   stencils accumulate: 'float acc = ...; acc += ...; acc *= ...;', a local
   declared without a value and set later, one computed in double from a
   float array, and a local that reads another's value at that point.
   -DTURNS: two arrays in turn (B from A, then A from B).
   Usage: accumulators n m T out.bin */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

#ifdef TURNS
#define IN(di, dj) A[i + (di)][j + (dj)]
#define OUT B[i][j]
#define IN2(di, dj) B[i + (di)][j + (dj)]
#define OUT2 A[i][j]
static void run(int T, int n, int m, ELEM A[n][m], ELEM B[n][m])
#else
#define IN(di, dj) A[t % 2][i + (di)][j + (dj)]
#define OUT A[(t + 1) % 2][i][j]
static void run(int T, int n, int m, ELEM A[2][n][m])
#endif
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        ELEM acc = 0.25f * IN(0, 0);
        acc += 0.125f * IN(-1, 0);
        acc += 0.125f * IN(1, 0);
        double wide;
        wide = 0.1 * IN(0, -1);
        wide -= 0.05 * IN(0, 1);
        ELEM lap = acc - 0.5f * IN(0, 0);
        acc = acc + (ELEM)wide;
        acc *= 0.9f;
        OUT = acc + 0.2f * lap;
      }
#ifdef TURNS
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        ELEM acc = 0.25f * IN2(0, 0);
        acc += 0.125f * IN2(-1, 0);
        acc += 0.125f * IN2(1, 0);
        double wide;
        wide = 0.1 * IN2(0, -1);
        wide -= 0.05 * IN2(0, 1);
        ELEM lap = acc - 0.5f * IN2(0, 0);
        acc = acc + (ELEM)wide;
        acc *= 0.9f;
        OUT2 = acc + 0.2f * lap;
      }
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
#ifdef TURNS
  run(T, n, m, (void *)buf, (void *)(buf + (long)n * m));
#else
  run(T, n, m, (void *)buf);
#endif
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * n * m);
}
