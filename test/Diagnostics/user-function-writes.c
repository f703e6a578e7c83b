// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A function that writes memory is not pure: refused at the write.

static float count;

static float tally(float x)
{
  count = count + 1;
  return x;
}

void run(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) % 2][i][j] = tally(A[t % 2][i][j]);
#pragma endscop
}

// CHECK: user-function-writes.c:8:3: error: an5dc inlines a function the update calls when its body {{.*}} [impure-call]
// CHECK: user-function-writes.c:17:32: note: 'tally' is called here
