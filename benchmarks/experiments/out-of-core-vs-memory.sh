#!/bin/bash
# Out of core against in memory, same binaries (benchmarks/results/log-2026-11-25-gpu.md).
# Before running: python3 benchmarks/run.py generate --out gpurun/after --tuned benchmarks/tuned-h200.csv --stencils j2d5pt,star3d1r,star3d4r
# then, on the GPU machine from the repository root: OUT=<dir> bash benchmarks/experiments/out-of-core-vs-memory.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd gpurun/after
cp j2d5pt.float.auto.bT4.bS128.sl128.mb0.pf2.c2.cu j2d5pt.cu; cp star3d1r.float.auto.bT4.bS32x8.sl64.mb0.pf2.c4.cu star3d1r.cu; cp star3d4r.float.auto.bT1.bS32x16.sl64.mb0.pf2.c2.v4.cu star3d4r.cu
for f in j2d5pt star3d1r star3d4r; do nvcc -O3 -arch=sm_90 $f.cu -o $f & nvcc -O3 -arch=sm_90 -DAN5D_VERIFY $f.cu -o $f.verify & done; wait
echo "stencil,size,steps,budget,ms,wall_s,decision,checksum" > $OUT/ooc.csv
run() { # name "args" steps budget
  local s=$(date +%s%N)
  if [ "$4" = mem ]; then o=$(AN5D_TIMING=1 AN5D_VERBOSE=1 ./$1 $2 $3 2>&1); else o=$(AN5D_DEVICE_MEMORY=$4 AN5D_TIMING=1 AN5D_VERBOSE=1 ./$1 $2 $3 2>&1); fi
  local e=$(date +%s%N)
  ms=$(echo "$o" | grep "an5d timing:" | head -1 | sed 's/.*an5d timing: \([0-9.]*\) ms.*/\1/')
  dec=$(echo "$o" | grep -E "an5d: (in memory|out-of-core)" | head -1 | tr ',' ';')
  cs=$(echo "$o" | grep checksum)
  echo "$1,$2,$3,$4,$ms,$(( (e - s) / 1000000 ))ms,$dec,$cs" | tee -a $OUT/ooc.csv
}
Q2=$((2*16384*16384*4/4)); H2=$((2*16384*16384*4/2))
run j2d5pt "16384 16384" 1000 mem
run j2d5pt "16384 16384" 1000 $Q2
run j2d5pt "16384 16384" 1000 $H2
Q3=$((2*512*512*512*4/4)); H3=$((2*512*512*512*4/2))
for f in star3d1r star3d4r; do
run $f "512 512 512" 40 mem
run $f "512 512 512" 40 $Q3
run $f "512 512 512" 40 $H3
done

for f in star3d4r star3d1r; do for b in mem $((2*256*256*256*4/4)); do
  if [ $b = mem ]; then AN5D_VERBOSE=1 ./$f.verify 256 256 256 12 2>&1 | grep -E "verify|an5d:" ; else AN5D_DEVICE_MEMORY=$b AN5D_VERBOSE=1 ./$f.verify 256 256 256 12 2>&1 | grep -E "verify|an5d:"; fi
done; done
./star3d4r 512 512 512 40 /tmp/mem.bin > /dev/null 2>&1
AN5D_DEVICE_MEMORY=$((2*512*512*512*4/4)) ./star3d4r 512 512 512 40 /tmp/ooc.bin > /dev/null 2>&1
python3 - <<'PY'
import numpy as np
a=np.fromfile("/tmp/mem.bin",dtype=np.float32).reshape(2,512,512,512); b=np.fromfile("/tmp/ooc.bin",dtype=np.float32).reshape(2,512,512,512)
d=np.argwhere(a!=b); print("differing cells", len(d))
if len(d):
    print("planes i of differing cells", np.unique(d[:,1])[:40]); print("j", np.unique(d[:,2])[:20], "k", np.unique(d[:,3])[:20])
    i=tuple(d[0]); print("first", i, a[i], b[i], "max abs", np.abs(a-b).max())
PY
