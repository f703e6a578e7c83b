/* Two fields over a 1D grid updated in place, as a staggered wave scheme
   writes them: velocity v from the pressure's differences, then the
   pressure p from the new velocity's; a source term src[t] at one cell.
   Usage: fields-1d n T out.bin (v, then p) */
#include "common.h"

#ifdef USE_DOUBLE
#define REAL double
#else
#define REAL float
#endif

static void run(int T, int n, REAL *v, REAL *p, const REAL *src, REAL dt)
{
  int t, i;
  const int mid = n / 2;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 0; i < n - 1; i++)
      v[i] = v[i] - dt * (p[i + 1] - p[i]);
    for (i = 1; i < n - 1; i++)
      p[i] = p[i] - dt * (v[i] - v[i - 1]);
    p[mid] = p[mid] + src[t];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 4)
    return 2;
  int n = atoi(argv[1]), T = atoi(argv[2]);
  REAL *both = (REAL *)new_planes(n, sizeof(REAL));
  REAL *src = (REAL *)malloc(sizeof(REAL) * (T > 0 ? T : 1));
  for (int t = 0; t < T; t++)
    src[t] = (REAL)(t % 5) * (REAL)0.125;
  run(T, n, both, both + n, src, (REAL)0.3);
  FILE *f = fopen(argv[3], "wb");
  if (f == NULL || fwrite(both, sizeof(REAL), 2 * n, f) != (size_t)(2 * n))
    return 1;
  return fclose(f) != 0;
}
