/* Iterators and scalars named like variables of the generated code.
   Usage: name-clashes n m T out.bin */
#include "common.h"

static void run(int T, int n, int m, float step, double full, int in, float (*A)[n][m])
{
#pragma scop
  for (int grid = 0; grid < T; grid++)
    for (int plane = 1; plane < n - 1; plane++)
      for (int col = 1; col < m - 1; col++)
        A[(grid + 1) % 2][plane][col] = step * A[grid % 2][plane - 1][col] + full * A[grid % 2][plane][col + 1]
                                      + A[grid % 2][plane][col] / in;
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  float *buf = (float *)new_planes((long)n * m, sizeof(float));
  run(T, n, m, 0.4f, 0.3, 4, (void *)buf);
  return write_cells(argv[4], buf, sizeof(float) * 2 * n * m);
}
