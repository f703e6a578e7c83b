import struct, sys, math
a = open(sys.argv[1], 'rb').read(); b = open(sys.argv[2], 'rb').read()
fmt = 'd' if sys.argv[3] == 'double' else 'f'
w = struct.calcsize(fmt)
if len(a) != len(b): print("SIZE", len(a), len(b)); sys.exit(1)
n = len(a) // w; bad = 0
for i in range(n):
    x = struct.unpack_from(fmt, a, i * w)[0]; y = struct.unpack_from(fmt, b, i * w)[0]
    if not ((math.isnan(x) and math.isnan(y)) or a[i*w:(i+1)*w] == b[i*w:(i+1)*w]): bad += 1
print(("PASS" if bad == 0 else "FAIL"), sys.argv[2], n, "cells,", bad, "differ in bits (NaN payloads aside)")
