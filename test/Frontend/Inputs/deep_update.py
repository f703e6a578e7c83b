"""Writes a 2D stencil whose update is deeply nested, for the depth tests.

Usage: deep_update.py sum N   -- a sum of N terms over the 3x3 box
       deep_update.py neg N   -- N unary minus signs before one read
       deep_update.py cast N  -- N casts to float before one read
"""
import sys



def index(var, offset):
    if offset == 0:
        return var
    return "%s %s %d" % (var, "+" if offset > 0 else "-", abs(offset))


kind, count = sys.argv[1], int(sys.argv[2])
if kind == "sum":
    offsets = [(di, dj) for di in (-1, 0, 1) for dj in (-1, 0, 1)]
    terms = []
    for k in range(count):
        di, dj = offsets[k % len(offsets)]
        terms.append("0.1f * A[t %% 2][%s][%s]" % (index("i", di), index("j", dj)))
    update = "\n      + ".join(terms)
elif kind == "neg":
    update = "- " * count + "A[t % 2][i][j]"
elif kind == "cast":
    update = "(float)" * count + "A[t % 2][i][j]"
else:
    sys.exit("unknown kind " + kind)
print("""void deep(int T, int n, int m, float (*A)[n][m]) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[(t + 1) %% 2][i][j] =
        %s;
#pragma endscop
}""" % update)
