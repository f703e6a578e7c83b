// RUN: not %an5dc %s --dump=stencil 2>&1 | FileCheck %s
// A file without a scop region.

int main(void) { return 0; }

// CHECK: no-scop.c:1:1: error: no '#pragma scop' region in this file; put '#pragma scop' before the stencil's time loop and '#pragma endscop' after it [no-scop]
