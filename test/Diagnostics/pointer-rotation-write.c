// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// Three pointers rotated: the nest must write through the last of them.

void run(int T, int n, int m, float *buf) {
  float (*prev)[m] = (float (*)[m])buf;
  float (*cur)[m] = (float (*)[m])(buf + n * m);
  float (*next)[m] = (float (*)[m])(buf + 2 * n * m);
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        cur[i][j] = 2 * next[i][j] - prev[i][j];
    float (*tmp)[m] = prev;
    prev = cur;
    cur = next;
    next = tmp;
  }
#pragma endscop
}

// CHECK: pointer-rotation-write.c:12:9: error: the nest writes through 'cur'; with three pointers rotated ('tmp = prev; prev = cur; ...') it writes through the last, 'next' [two-arrays-mismatch]
