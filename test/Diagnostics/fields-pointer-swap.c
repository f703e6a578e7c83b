// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// A pointer swap after the nests of a time step of several fields (a
// coupled pair computed into two other arrays, then swapped) is refused
// at the swap, saying how to write it instead: each field with two
// planes selected by the time loop's iterator.

void rd(int n, int m, int T, float (*u)[m], float (*v)[m], float (*un)[m],
        float (*vn)[m]) {
  float (*tmp)[m];
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        un[i][j] = u[i][j] + 0.1f * (u[i - 1][j] + u[i + 1][j] - 2.0f * u[i][j]) - 0.01f * u[i][j] * v[i][j];
        vn[i][j] = v[i][j] + 0.05f * (v[i][j - 1] + v[i][j + 1] - 2.0f * v[i][j]) + 0.01f * u[i][j] * v[i][j];
      }
    tmp = u; u = un; un = tmp;
    tmp = v; v = vn; vn = tmp;
  }
#pragma endscop
}

// CHECK: fields-pointer-swap.c:18:5: error: a time step of several fields swaps pointers ('tmp = u'); an5dc does not accept that yet: give each field two planes of one array, selected by the time loop's iterator, as 'u[(t + 1) % 2][i][j] = ... u[t % 2][i][j] ...', and drop the swap [several-fields]
// CHECK-NEXT: tmp = u; u = un; un = tmp;
// CHECK-NEXT: ^
