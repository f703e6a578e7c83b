// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// RUN: not %an5dc %s -o %t2.cu -- -DDOUBLE 2>&1 | FileCheck %s --check-prefix=DBL
// RUN: not %an5dc %s -o %t3.cu -- -DTHREE 2>&1 | FileCheck %s --check-prefix=THREE
// Arrays of row pointers (float **, rows allocated one by one) have no
// layout the GPU copy can take: refused at the first access, saying which
// declarations over one allocation are accepted.

#ifdef DOUBLE
typedef double real;
#else
typedef float real;
#endif

#ifdef THREE
void run3(int T, int n, real ***a, real ***b) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          b[i][j][k] = 0.5f * (a[i - 1][j][k] + a[i + 1][j][k]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          a[i][j][k] = 0.5f * (b[i - 1][j][k] + b[i + 1][j][k]);
  }
#pragma endscop
}
#else
void run(int T, int n, real **a, real **b) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        b[i][j] = 0.25f * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        a[i][j] = 0.25f * (b[i - 1][j] + b[i + 1][j] + b[i][j - 1] + b[i][j + 1]);
  }
#pragma endscop
}
#endif

// CHECK: pointer-to-pointers.c:36:9: error: 'b' is an array of pointers to rows ('real **'); an5dc copies arrays of one contiguous allocation: declare it as a pointer to rows, 'float (*b)[m]', or a flat pointer, 'float *b' indexed 'b[i * m + j]' [element-type]
// DBL: error: 'b' is an array of pointers to rows ('real **'); an5dc copies arrays of one contiguous allocation: declare it as a pointer to rows, 'double (*b)[m]', or a flat pointer, 'double *b' indexed 'b[i * m + j]' [element-type]
// THREE: error: 'b' is an array of pointers to rows ('real ***'); an5dc copies arrays of one contiguous allocation: declare it as a pointer to rows, 'float (*b)[m][l]', or a flat pointer, 'float *b' indexed 'b[(i * m + j) * l + k]' [element-type]
