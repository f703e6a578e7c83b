// RUN: %an5dc %s --dump=stencil | FileCheck %s
// The stencil records per loop whether its iterator is declared in the loop
// header or before the loop and assigned there, whatever stands between '('
// and the name (a comment, a macro, parentheses).

#define COL j

void run(int T, int n, float (*A)[n][n]) {
  int t, j;
#pragma scop
  for (/* steps */ t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for ((COL) = 1; j < n - 1; j++)
        A[(t + 1) % 2][i][j] = A[t % 2][i][j - 1] * 0.5f + A[t % 2][i][j + 1] * 0.5f;
#pragma endscop
}

// CHECK: time loop: t from 0 to T - 1 (declared before the loop){{$}}
// CHECK-NEXT: space loop 0: i from 1 to n - 2 (streaming){{$}}
// CHECK-NEXT: space loop 1: j from 1 to n - 2 (declared before the loop){{$}}
