#!/usr/bin/env bash
# run_gpu_check.sh - generate CUDA for every benchmark with an5dc, build it
# with nvcc and -DAN5D_VERIFY, run it on the GPU and collect the verdicts
# (each program compares the GPU result with its own CPU run of the original
# loop nest, both planes, tolerance 1e-4 float / 1e-10 double).
#
# usage: benchmarks/run_gpu_check.sh [generate|check|all] DIR
#   generate  run an5dc on every benchmark into DIR (needs build/bin/an5dc)
#   check     build every DIR/*.cu with nvcc and run it (needs nvcc and a GPU)
#   all       both (default)
# environment: AN5DC (default <repo>/build/bin/an5dc), NVCC (default nvcc),
#   ARCH (default sm_90), JOBS (parallel nvcc builds, default nproc).
set -u
mode=${1:-all}
dir=${2:-gpu-check}
here=$(cd "$(dirname "$0")" && pwd)
an5dc=${AN5DC:-$here/../build/bin/an5dc}
nvcc=${NVCC:-nvcc}
arch=${ARCH:-sm_90}
jobs=${JOBS:-$(nproc)}
mkdir -p "$dir"

generate() {
  local status=0
  for src in "$here"/*.c; do
    local b flags
    b=$(basename "$src" .c)
    flags=""
    case $b in star3d4r|box3d4r) flags="-bT 3" ;; esac  # 32x32 blocks need bS > 8 bT
    "$an5dc" "$src" $flags -o "$dir/$b.cu" || { echo "GENERATE FAIL $b"; status=1; }
    case $b in j2d5pt|star2d3r|box2d2r|gradient2d|star3d2r|j3d27pt)
      "$an5dc" "$src" -bT 5 -o "$dir/${b}_double.cu" -- -DUSE_DOUBLE ||
        { echo "GENERATE FAIL ${b}_double"; status=1; } ;;
    esac
  done
  return $status
}

check() {
  local pass=0 fail=0
  for cu in "$dir"/*.cu; do
    local b def
    b=${cu%.cu}
    def=""
    case $b in *_double) def=-DUSE_DOUBLE ;; esac
    ( "$nvcc" -O3 -arch="$arch" -DAN5D_VERIFY $def "$cu" -o "$b" 2> "$b.build.log" ||
        echo "BUILD FAIL $(basename "$b") (see $b.build.log)" ) &
    while [ "$(jobs -r | wc -l)" -ge "$jobs" ]; do sleep 0.2; done
  done
  wait
  for cu in "$dir"/*.cu; do
    local b name args out rc line
    b=${cu%.cu}
    name=$(basename "$b")
    if [ ! -x "$b" ]; then fail=$((fail + 1)); continue; fi
    case $name in *3d*) args="64 70 90 9" ;; *) args="1000 700 13" ;; esac
    out=$(timeout 300 "$b" $args 2>&1); rc=$?
    line=$(printf '%s\n' "$out" | grep "an5d verify")
    if [ $rc -eq 0 ] && [ -n "$line" ]; then
      pass=$((pass + 1)); echo "PASS $name: $line"
    else
      fail=$((fail + 1)); echo "FAIL $name (exit $rc): $(printf '%s\n' "$out" | head -3)"
    fi
  done
  echo "passed $pass, failed $fail"
  [ $fail -eq 0 ]
}

case $mode in
  generate) generate ;;
  check) check ;;
  all) generate && check ;;
  *) echo "usage: $0 [generate|check|all] DIR" >&2; exit 2 ;;
esac
