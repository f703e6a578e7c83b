/* The update calls functions of the program, as hand-written codes factor
   their stencils: a weighted sum of five values passed as scalars, a
   Laplacian that takes the plane and the cell ('lap(m, A[t % 2], i, j)',
   locals and an accumulation inside), a double parameter and a float one
   (arguments converted as C passes them), a function calling another, and
   one called on its own result. -DTURNS: two arrays in turn, the function
   given each array. -DFLAT: flat pointers swapped, indexed through an index
   function 'in[at(m, i, j)]' (on the write too), the plane passed as a
   pointer. -DPLANEFN: the written plane chosen by a function,
   'A[next_plane(t)]'. Usage: user-functions n m T out.bin */
#include "common.h"

#ifndef ELEM
#define ELEM float
#endif

static inline ELEM avg5(ELEM c, ELEM n, ELEM s, ELEM w, ELEM e)
{
  return 0.2f * (c + n + s + w + e);
}

static double relax(double x, float w) { return x * w; }

static ELEM half(ELEM x) { return x * 0.5f; }
static ELEM damp(ELEM x) { return half(x) * 0.9f + (ELEM)0.01; }

#ifdef FLAT
static inline int at(int m, int i, int j) { return i * m + j; }

static inline ELEM lap(int m, const ELEM *a, int i, int j)
{
  ELEM acc = a[at(m, i - 1, j)] + a[at(m, i + 1, j)];
  acc += a[(i * m) + j - 1] + a[at(m, i, j + 1)];
  return acc - 4 * a[at(m, i, j)];
}
#define IN(di, dj) in[at(m, i + (di), j + (dj))]
#define LAP lap(m, in, i, j)
#define OUT out[at(m, i, j)]
#else
static inline ELEM lap(int m, ELEM (*a)[m], int i, int j)
{
  ELEM acc = a[i - 1][j] + a[i + 1][j];
  acc += a[i][j - 1] + a[i][j + 1];
  return acc - 4 * a[i][j];
}
#ifdef TURNS
#define IN(di, dj) A[i + (di)][j + (dj)]
#define LAP lap(m, A, i, j)
#define OUT B[i][j]
#define IN2(di, dj) B[i + (di)][j + (dj)]
#define LAP2 lap(m, B, i, j)
#define OUT2 A[i][j]
#else
#define IN(di, dj) A[t % 2][i + (di)][j + (dj)]
#define LAP lap(m, A[t % 2], i, j)
#ifdef PLANEFN
static inline int next_plane(int t) { return (t + 1) % 2; }
#define OUT A[next_plane(t)][i][j]
#else
#define OUT A[(t + 1) % 2][i][j]
#endif
#endif
#endif

#if defined(TURNS)
static void run(int T, int n, int m, ELEM A[n][m], ELEM B[n][m])
#elif defined(FLAT)
static void run(int T, int n, int m, ELEM *in, ELEM *out)
#else
static void run(int T, int n, int m, ELEM A[2][n][m])
#endif
{
#ifdef FLAT
  ELEM *tmp;
#endif
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        OUT = avg5(IN(0, 0), IN(-1, 0), IN(1, 0), IN(0, -1), IN(0, 1)) +
              (ELEM)relax(LAP, 0.05) + 0.01f * damp(damp(IN(0, 1)));
#ifdef TURNS
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        OUT2 = avg5(IN2(0, 0), IN2(-1, 0), IN2(1, 0), IN2(0, -1), IN2(0, 1)) +
               (ELEM)relax(LAP2, 0.05) + 0.01f * damp(damp(IN2(0, 1)));
#endif
#ifdef FLAT
    tmp = in;
    in = out;
    out = tmp;
#endif
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc != 5)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), T = atoi(argv[3]);
  ELEM *buf = (ELEM *)new_planes((long)n * m, sizeof(ELEM));
#if defined(TURNS) || defined(FLAT)
  run(T, n, m, (void *)buf, (void *)(buf + (long)n * m));
#else
  run(T, n, m, (void *)buf);
#endif
  return write_cells(argv[4], buf, sizeof(ELEM) * 2 * n * m);
}
