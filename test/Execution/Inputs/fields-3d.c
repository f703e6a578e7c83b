/* Two fields over a 3D grid in two loop nests: p with a plane index from
   the previous step's p and q, then q updated in place from the new p at
   its neighbours and a coefficient array. Usage: fields-3d n m k T out.bin
   (p's two planes, then q) */
#include "common.h"

#ifdef USE_DOUBLE
#define REAL double
#else
#define REAL float
#endif

static void run(int T, int n, int m, int k, REAL p[2][n][m][k],
                REAL q[n][m][k], const REAL c[n][m][k], REAL w)
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int l = 1; l < k - 1; l++)
          p[(t + 1) % 2][i][j][l] = p[t % 2][i][j][l] +
              w * (p[t % 2][i - 1][j][l] + p[t % 2][i + 1][j][l] +
                   p[t % 2][i][j - 1][l] + p[t % 2][i][j + 1][l] +
                   p[t % 2][i][j][l - 1] + p[t % 2][i][j][l + 1] -
                   6 * p[t % 2][i][j][l]) - q[i][j][l];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        for (int l = 0; l < k; l++)
          q[i][j][l] = q[i][j][l] +
              c[i][j][l] * (p[(t + 1) % 2][i + 1][j][l] -
                            p[(t + 1) % 2][i - 1][j][l] +
                            p[(t + 1) % 2][i][j + 1][l] -
                            p[(t + 1) % 2][i][j - 1][l]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), k = atoi(argv[3]),
      T = atoi(argv[4]);
  long cells = (long)n * m * k;
  REAL *p = (REAL *)new_planes(cells, sizeof(REAL));
  REAL *q = (REAL *)new_planes(cells, sizeof(REAL));
  REAL *c = (REAL *)new_planes(cells, sizeof(REAL));
  run(T, n, m, k, (void *)p, (void *)q, (void *)c, (REAL)0.1);
  FILE *f = fopen(argv[5], "wb");
  if (f == NULL || fwrite(p, sizeof(REAL), 2 * cells, f) != (size_t)(2 * cells) ||
      fwrite(q, sizeof(REAL), cells, f) != (size_t)cells)
    return 1;
  return fclose(f) != 0;
}
