/* Two arrays in turn in 1D through plain pointers (jacobi-1d with malloc'd
   arrays): no length declared. Usage: two-arrays-pointers-1d n T out.bin */
#include "common.h"
static void run(int T, int n, float *A, float *B)
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
    for (int i = 1; i < n - 1; i++)
      A[i] = 0.33333f * (B[i - 1] + B[i] + B[i + 1]);
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
