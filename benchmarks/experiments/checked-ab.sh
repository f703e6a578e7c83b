#!/bin/bash
# Checked launches A/B (log-2026-11-26-checked.md). Before: generate gpurun/{base,new}-{tuned,def} and gpurun/misc
# as the log says; call 1 = run-gpu.sh, call 2 = run-gpu2.sh below.
# One device call: checked launches (exact division without a vote per update)
# A/B against HEAD, plus the flagged-launch path on the GPU against the C loop.
export PATH=/usr/local/cuda/bin:$PATH
cd gpurun
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
( cd misc
  for f in division-late-range division-special-values division-late-range-c2 division-special-values-c2 double-division-special-values; do
    src=${f%-c2}; dbl=; [ $f = double-division-special-values ] && dbl=-DUSE_DOUBLE
    nvcc -O3 -arch=sm_90 $f.cu -o $f.gpu -I. & cc -O2 $dbl -std=gnu99 $src.c -o $f.ref -lm -I.
  done; wait
  for f in division-late-range division-late-range-c2; do for T in 1 9 12 40; do
    ./$f.ref 300 500 $T ref.bin; AN5D_VERBOSE=1 ./$f.gpu 300 500 $T gpu.bin 2>&1 | grep launch; python3 ../../benchmarks/experiments/checked-cmp.py ref.bin gpu.bin float; done; done
  for f in division-special-values division-special-values-c2; do for T in 1 2 7; do
    ./$f.ref 300 500 $T ref.bin; AN5D_VERBOSE=1 ./$f.gpu 300 500 $T gpu.bin 2>&1 | grep launch; python3 ../../benchmarks/experiments/checked-cmp.py ref.bin gpu.bin float; done; done
  for T in 1 3; do ./double-division-special-values.ref 300 500 $T ref.bin; AN5D_VERBOSE=1 ./double-division-special-values.gpu 300 500 $T gpu.bin 2>&1 | grep launch; python3 ../../benchmarks/experiments/checked-cmp.py ref.bin gpu.bin double; done
) > $OUT/misc.txt 2>&1
for d in base-tuned new-tuned base-def new-def; do
  timeout 130 python3 ../benchmarks/run.py measure --dir $d --csv $OUT/$d.csv --check --quick --device H200 > $OUT/$d.log 2>&1
done

# ---- call 2 ----
# Second call: base/new/fast-math tuned on one GPU, SASS counts, and whether
# the benchmark data flags any launch.
export PATH=/usr/local/cuda/bin:$PATH
cd gpurun
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/device.txt
( for d in base-tuned new-tuned fast-tuned; do echo == $d; python3 ../benchmarks/sass_count.py $d/j2d5pt.*.cu $d/j2d9pt.*.cu; done ) > $R/sass.txt 2>&1 &
( cd new-tuned; nvcc -O3 -arch=sm_90 j2d5pt.float.*.cu -o j2d5pt-f; AN5D_VERBOSE=1 AN5D_TIMING=3 ./j2d5pt-f 16384 16384 200;
  nvcc -O3 -arch=sm_90 j2d9pt.float.*.cu -o j2d9pt-f; AN5D_VERBOSE=1 AN5D_TIMING=3 ./j2d9pt-f 16384 16384 200 ) > $R/verbose.txt 2>&1
wait
for d in base-tuned new-tuned fast-tuned; do
  timeout 120 python3 ../benchmarks/run.py measure --dir $d --csv $R/$d.csv --quick --device H200 --stencils j2d5pt,j2d9pt,j2d9pt-gol,j3d27pt > $R/$d.log 2>&1
done
cd $OUT && tar czf r.tgz r && rm -rf r
