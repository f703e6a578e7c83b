#!/usr/bin/env bash
# On a machine with a GPU: builds every generated file in DIR with nvcc (the
# flags of the file's "// Build: nvcc ... FILE.cu" line) and -DAN5D_VERIFY
# (the original loop nest runs on the CPU, OpenMP-parallel when available)
# and compares both planes at the given size and step counts.
#   benchmarks/gpu_verify.sh DIR OUT.csv [2D-size] [3D-size] [steps...]
# Defaults: 4096 (2D), 256 (3D), steps 100 101. Writes one CSV row per run:
# stencil,precision,size,steps,status,max_abs_err,max_rel_err,tolerance,seconds
set -uo pipefail
dir=$1; csv=$2; n2=${3:-4096}; n3=${4:-256}; shift 4 2>/dev/null || shift $#
steps=("$@"); [ ${#steps[@]} -eq 0 ] && steps=(100 101)
bin=$(mktemp -d)
ls "$dir"/*.cu | xargs -P "$(nproc)" -I{} sh -c \
  'f={}; b=$(basename $f .cu); flags=$(sed -n "s|^// Build: nvcc \(.*\) FILE\.cu   or .*|\1|p" "$f" | head -1); nvcc ${flags:--O3 -arch=sm_90} -DAN5D_VERIFY -Xcompiler -fopenmp "$f" -o '"$bin"'/$b -lgomp > '"$bin"'/$b.log 2>&1 || echo "BUILD FAILED: $b"'
echo "stencil,precision,size,steps,status,max_abs_err,max_rel_err,tolerance,seconds" > "$csv"
for f in "$dir"/*.cu; do
  b=$(basename "$f" .cu); name=${b%.*}; prec=${b##*.}
  case $name in *3d*) size="$n3 $n3 $n3";; *) size="$n2 $n2";; esac
  for T in "${steps[@]}"; do
    if [ ! -x "$bin/$b" ]; then
      echo "$name,$prec,${size// /x},$T,build-failed,,,," >> "$csv"; continue
    fi
    start=$(date +%s.%N)
    out=$("$bin/$b" $size $T 2>&1); rc=$?
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    line=$(echo "$out" | grep -m1 "an5d verify") || true
    abs=$(echo "$line" | sed -n 's/.*max abs error \([^,]*\),.*/\1/p')
    rel=$(echo "$line" | sed -n 's/.*max rel error \([^ ]*\) .*/\1/p')
    tol=$(echo "$line" | sed -n 's/.*tolerance \([^)]*\)).*/\1/p')
    status=$([ $rc = 0 ] && [ -n "$line" ] && echo pass || echo "fail-rc$rc")
    echo "$name,$prec,${size// /x},$T,$status,$abs,$rel,$tol,$secs" | tee -a "$csv"
  done
done
