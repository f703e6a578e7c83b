/* Jacobi with a copy-back in 1D through plain pointers (no length
   declared). Usage: copy-back-1d n T out.bin (A, then B) */
#include "common.h"
static void run(int T, int n, float *A, float *B)
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      B[i] = 0.25f * A[i - 1] + 0.5f * A[i] + 0.125f * A[i + 1];
    for (int i = 1; i < n - 1; i++)
      A[i] = B[i];
  }
#pragma endscop
}
int main(int argc, char **argv)
{
  if (argc != 4) return 2;
  int n = atoi(argv[1]), T = atoi(argv[2]);
  float *buf = (float *)new_planes((long)n, sizeof(float));
  run(T, n, buf, buf + n);
  return write_cells(argv[3], buf, sizeof(float) * 2 * n);
}
