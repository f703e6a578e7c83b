/* A C99 program as users write it, not valid C++: the array is a VLA
   parameter, malloc's result is not cast, pointers are 'restrict', and the
   coefficient comes from a macro given on the command line (-DWEIGHT=...).
   an5dc rewrites what C++ rejects and defines the macro in its output.
   Usage: plain-c n m T out.bin */
#include <stdio.h>
#include <stdlib.h>

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif

static void diffuse(int T, int n, int m, real (*restrict A)[n][m])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 2; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = (1 - 4 * WEIGHT) * A[t % 2][i][j]
            + WEIGHT * (A[t % 2][i - 1][j] + A[t % 2][i + 1][j] + A[t % 2][i][j - 2] + A[t % 2][i][j + 1]);
#pragma endscop
}

static int save(const char *path, const real *restrict data, size_t count)
{
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(data, sizeof(real), count, f) == count;
  return (f && fclose(f) == 0 && ok) ? 0 : 1;
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  real *buf = malloc(sizeof(real) * 2 * n * m);
  if (!buf)
    return 1;
  for (int k = 0; k < 2 * n * m; k++)
    buf[k] = (real)((k * 7 + 3) % 17) / 17 + (k < n * m ? 0 : 1);
  diffuse(T, n, m, (real (*)[n][m])buf);
  int rc = save(argv[4], buf, (size_t)2 * n * m);
  free(buf);
  return rc;
}
