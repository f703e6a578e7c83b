#!/bin/bash
# GPU call 1: A/B of base (main 529a3a9) vs new (merge2+fastmath) vs new --fast-math; slabs on one GPU; grid splits.
# Before running (here): python3 benchmarks/run.py generate --out gpurun/{base,new,fast} --tuned benchmarks/tuned-h200.csv --stencils j2d5pt,j2d9pt,gradient2d,star2d1r,j3d27pt
# with --an5dc the binary at 529a3a9 (base), at the merge (new), and a wrapper adding --fast-math (fast);
# naive rows removed from configs.csv; gpurun/misc/ holds the slab and grid-split files (see the log).
export PATH=/usr/local/cuda/bin:$PATH
cd gpurun
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
( cd misc; for f in j2d5pt star3d1r j2d5pt-sl1 star3d1r-naive; do nvcc -O3 -arch=sm_90 -DAN5D_VERIFY -Xcompiler -fopenmp -lgomp $f.cu -o $f.verify & done; nvcc -O3 -arch=sm_90 j2d5pt.cu -o j2d5pt & nvcc -O3 -arch=sm_90 star3d1r.cu -o star3d1r & wait ) > $OUT/misc-build.log 2>&1
( cd misc
  echo "== slabs on one GPU (verify)"
  for g in 1 2 3; do AN5D_GPUS=$g AN5D_VERBOSE=1 ./j2d5pt.verify 1000 1000 57 2>&1 | grep -E "an5d: |verify"; done
  for g in 1 2 3; do AN5D_GPUS=$g AN5D_VERBOSE=1 ./star3d1r.verify 200 200 200 21 2>&1 | grep -E "an5d: |verify"; done
  echo "== slabs timing (same GPU)"
  for g in 1 2; do AN5D_GPUS=$g AN5D_TIMING=1 ./j2d5pt 16384 16384 200 2>&1 | grep -E "timing"; AN5D_GPUS=$g AN5D_TIMING=1 ./star3d1r 512 512 512 200 2>&1 | grep timing; done
  echo "== grid splits"
  AN5D_VERBOSE=1 ./j2d5pt-sl1.verify 70001 300 9 2>&1 | grep -E "an5d: |verify|error"
  AN5D_VERBOSE=1 ./star3d1r-naive.verify 4 600003 5 7 2>&1 | grep -E "an5d: |verify|error"
  AN5D_VERBOSE=1 ./star3d1r-naive.verify 600003 4 5 7 2>&1 | grep -E "an5d: |verify|error"
) > $OUT/misc.txt 2>&1
for d in base new fast; do
  timeout 170 python3 ../benchmarks/run.py measure --dir $d --csv $OUT/$d.csv --check --quick --device H200 > $OUT/$d.log 2>&1
done
