/* A pointer swap of flat pointers indexed with affine arithmetic,
   in[i * m + j], written several ways (a row offset as (i - 1) * m, as
   i * m - m, the stride first as m * i): out = f(in), then in and out swap
   through tmp (-DSWAP_BLOCK: a SWAP macro's braces around the three
   copies, -DSWAP_DO: do { ... } while (0) around them, its temporary
   declared inside). The pointers' final values are recorded as which
   buffer each points to. Usage: pointer-swap-flat-2d n m t0 T out.bin (both
   buffers, then 3 markers) */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif
#if defined(SWAP_BLOCK)
#define SWAP(a, b) { tmp = a; a = b; b = tmp; }
#elif defined(SWAP_DO)
#define SWAP(a, b) do { ELEM *t_ = a; a = b; b = t_; } while (0)
#else
#define SWAP(a, b) tmp = a; a = b; b = tmp
#endif

static void run(int t0, int T, int n, int m, ELEM *buf, ELEM *marks)
{
  ELEM *in = buf, *out = buf + (long)n * m, *tmp = NULL;
#pragma scop
  for (int t = t0; t < t0 + T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        out[i * m + j] = 0.1 * in[i * m + j - 1] + 0.2 * in[m * i + j]
                       + 0.3 * in[i * m + (j + 1)] + 0.15 * in[(i + 1) * m + j]
                       + 0.25 * in[i * m - m + j];
    SWAP(in, out);
  }
#pragma endscop
  marks[0] = (ELEM)(in == buf ? 0 : 1);
  marks[1] = (ELEM)(out == buf ? 0 : 1);
  marks[2] = (ELEM)(tmp == NULL ? -1 : tmp == buf ? 0 : 1);
}

int main(int argc, char **argv)
{
  if (argc != 6)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), t0 = atoi(argv[3]), T = atoi(argv[4]);
  ELEM *buf = (ELEM *)new_planes((long)n * m + 2, sizeof(ELEM));
  /* new_planes gave 2 x (n m + 2) cells: move plane 1 up against plane 0 */
  for (long c = 0; c < (long)n * m; c++)
    buf[(long)n * m + c] = buf[(long)n * m + 2 + c];
  run(t0, T, n, m, buf, buf + 2 * (long)n * m);
  return write_cells(argv[5], buf, sizeof(ELEM) * (2 * (long)n * m + 3));
}
