// RUN: %an5dc %s --dump=stencil | FileCheck %s
// Three pointers rotated after the nest (the wave equation): plane k of
// the view is the k-th pointer of the rotation, the nest writes the last.

void run(int T, int n, int m, float *buf) {
  float (*prev)[m] = (float (*)[m])buf;
  float (*cur)[m] = (float (*)[m])(buf + n * m);
  float (*next)[m] = (float (*)[m])(buf + 2 * n * m);
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        next[i][j] = 2 * cur[i][j] - prev[i][j]
            + 0.1f * (cur[i - 1][j] + cur[i + 1][j] + cur[i][j - 1] + cur[i][j + 1]);
    float (*tmp)[m] = prev;
    prev = cur;
    cur = next;
    next = tmp;
  }
#pragma endscop
}

// CHECK:      form: pointer swap
// CHECK-NEXT: plane 0: prev[n][m] (pointer to array)
// CHECK-NEXT: plane 1: cur[n][m] (pointer to array)
// CHECK-NEXT: plane 2: next[n][m] (pointer to array)
// CHECK:      steps: t from 0 to T - 1 (step s writes plane (s + 2) % 3)
// CHECK:      statement 0: next[i][j] = 2 * cur[i][j] - prev[i][j] + 0.1f * (cur[i - 1][j] + cur[i + 1][j] + cur[i][j - 1] + cur[i][j + 1])
// CHECK-NEXT: rotation: prev <- cur <- next <- prev after each step
// CHECK-NEXT: planes: 3 in turn
// CHECK-NEXT: write: prev[(t + 2) % 3][i][j]
