/* Shared by the Execution inputs: argument parsing, deterministic initial
   values (different in the two planes, boundaries included) and writing the
   whole array to a file. Compiles as C (reference) and as C++ (an5dc's
   output through an5dc-emucc). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

static double initial_value(int plane, long cell)
{
  return plane == 0 ? (double)((cell * 7 + 3) % 17) / 17.0 + 0.5
                    : (double)((cell * 5 + 1) % 11) / 11.0 - 0.25;
}

static int write_cells(const char *path, const void *data, size_t bytes)
{
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, bytes, f) != bytes || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    return 1;
  }
  return 0;
}
