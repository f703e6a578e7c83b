// RUN: not %an5dc %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -f %t.cu
// A local computed before an assignment to what it reads, used after it:
// C's local holds the old value, a read in its place would see the new
// one. Refused at the local's read, with the assignment in a note.

void run(int T, int n, int m, float (*ey)[m], float (*ex)[m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        float old = ey[i][j];
        ey[i][j] = ey[i][j] - 0.5f * ex[i][j];
        ex[i][j] = ex[i][j] + 0.1f * old;
      }
#pragma endscop
}

// CHECK: fields-local-after-write.c:12:21: error: a local declared before the assignment to 'ey' reads it, and this statement uses the local after that assignment; an5dc puts a local's value in at its uses, so read 'ey' in the statements before the assignment, or compute the local from other fields [several-fields]
// CHECK: fields-local-after-write.c:13:9: note: the assignment is here
