/* Two coupled fields (reaction-diffusion) whose updates call one Laplacian
   function given each field's plane, and a reaction term of the two
   fields' values. Usage: user-functions-fields n m T out.bin (u's two
   planes, then v's) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static ELEM lap(int m, ELEM (*f)[m], int i, int j)
{
  return f[i - 1][j] + f[i + 1][j] + f[i][j - 1] + f[i][j + 1] - 4 * f[i][j];
}

static ELEM react(ELEM u, ELEM v) { return u * v * v; }

static void run(int T, int n, int m, ELEM u[2][n][m], ELEM v[2][n][m],
                ELEM feed, ELEM kill)
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        u[(t + 1) % 2][i][j] = u[t % 2][i][j] + 0.2f * lap(m, u[t % 2], i, j) -
            react(u[t % 2][i][j], v[t % 2][i][j]) +
            feed * (1.0f - u[t % 2][i][j]);
        v[(t + 1) % 2][i][j] = v[t % 2][i][j] + 0.1f * lap(m, v[t % 2], i, j) +
            react(u[t % 2][i][j], v[t % 2][i][j]) -
            (feed + kill) * v[t % 2][i][j];
      }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  long cells = (long)n * m;
  ELEM *u = (ELEM *)new_planes(cells, sizeof(ELEM));
  ELEM *v = (ELEM *)new_planes(cells, sizeof(ELEM));
  for (long c = 0; c < 2 * cells; c++)
    v[c] = v[c] * (ELEM)0.5;
  run(T, n, m, (void *)u, (void *)v, (ELEM)0.04, (ELEM)0.06);
  FILE *f = fopen(argv[4], "wb");
  if (f == NULL || fwrite(u, sizeof(ELEM), 2 * cells, f) != (size_t)(2 * cells) ||
      fwrite(v, sizeof(ELEM), 2 * cells, f) != (size_t)(2 * cells))
    return 1;
  return fclose(f) != 0;
}
