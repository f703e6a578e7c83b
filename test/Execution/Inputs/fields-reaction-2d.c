/* A coupled reaction-diffusion step (Gray-Scott-like) over two fields with
   a plane index, both statements in one loop nest: u and v from the
   previous step's u and v. Usage: fields-reaction-2d n m T out.bin (u's two
   planes, then v's) */
#include "common.h"

#ifdef USE_DOUBLE
#define REAL double
#else
#define REAL float
#endif

static void run(int T, int n, int m, REAL u[2][n][m], REAL v[2][n][m],
                REAL feed, REAL kill)
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        u[(t + 1) % 2][i][j] = u[t % 2][i][j] +
            0.2f * (u[t % 2][i - 1][j] + u[t % 2][i + 1][j] +
                    u[t % 2][i][j - 1] + u[t % 2][i][j + 1] -
                    4.0f * u[t % 2][i][j]) -
            u[t % 2][i][j] * v[t % 2][i][j] * v[t % 2][i][j] +
            feed * (1.0f - u[t % 2][i][j]);
        v[(t + 1) % 2][i][j] = v[t % 2][i][j] +
            0.1f * (v[t % 2][i - 1][j] + v[t % 2][i + 1][j] +
                    v[t % 2][i][j - 1] + v[t % 2][i][j + 1] -
                    4.0f * v[t % 2][i][j]) +
            u[t % 2][i][j] * v[t % 2][i][j] * v[t % 2][i][j] -
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
  REAL *u = (REAL *)new_planes(cells, sizeof(REAL));
  REAL *v = (REAL *)new_planes(cells, sizeof(REAL));
  for (long c = 0; c < 2 * cells; c++)
    v[c] = v[c] * (REAL)0.5;
  run(T, n, m, (void *)u, (void *)v, (REAL)0.04, (REAL)0.06);
  FILE *f = fopen(argv[4], "wb");
  if (f == NULL || fwrite(u, sizeof(REAL), 2 * cells, f) != (size_t)(2 * cells) ||
      fwrite(v, sizeof(REAL), 2 * cells, f) != (size_t)(2 * cells))
    return 1;
  return fclose(f) != 0;
}
