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

/* Both planes of CELLS cells each, of float (ELEM 4) or double (ELEM 8),
   initialised by initial_value; exits if memory runs out. */
static void *new_planes(long cells, size_t elem)
{
  void *buf = malloc(elem * 2 * (size_t)cells);
  if (buf == NULL) {
    fprintf(stderr, "cannot allocate 2 x %ld cells\n", cells);
    exit(1);
  }
  for (long c = 0; c < 2 * cells; c++) {
    double v = initial_value(c >= cells, c % cells);
    if (elem == sizeof(float))
      ((float *)buf)[c] = (float)v;
    else
      ((double *)buf)[c] = v;
  }
  return buf;
}

/* Three planes (a scheme of three time levels), the third with values of
   its own, boundaries included. */
static void *new_three_planes(long cells, size_t elem)
{
  void *buf = malloc(elem * 3 * (size_t)cells);
  if (buf == NULL) {
    fprintf(stderr, "cannot allocate 3 x %ld cells\n", cells);
    exit(1);
  }
  for (long c = 0; c < 3 * cells; c++) {
    long cell = c % cells;
    double v = c < 2 * cells ? initial_value(c >= cells, cell)
                             : (double)((cell * 3 + 2) % 13) / 13.0 + 0.125;
    if (elem == sizeof(float))
      ((float *)buf)[c] = (float)v;
    else
      ((double *)buf)[c] = v;
  }
  return buf;
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
