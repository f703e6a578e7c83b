// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// Two fields updated in one loop nest, the second statement reading the
// first's field at a neighbour: C reads it updated on one side and not on
// the other, which cells computed in parallel cannot reproduce.

void run(int T, int n, double u[n][n], double v[n][n]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        u[i][j] = u[i][j] + 0.5 * v[i][j];
        v[i][j] = v[i][j] - 0.5 * (u[i][j + 1] - u[i][j]);
      }
#pragma endscop
}

// CHECK: fields-same-nest-neighbour.c:13:36: error: this read meets elements of 'u' that statement 0 of the same loop nest writes in other iterations: C reads some of them before and some after they are written, which cells computed in parallel cannot reproduce; give each statement its own loop nest, or read only the element the other statement writes in the same iteration [gauss-seidel]
// CHECK-NEXT: {{^}}        v[i][j] = v[i][j] - 0.5 * (u[i][j + 1] - u[i][j]);
// CHECK-NEXT: {{^}}                                   ^~~~~~~~~~~{{$}}
// CHECK: fields-same-nest-neighbour.c:12:9: note: the write is here
