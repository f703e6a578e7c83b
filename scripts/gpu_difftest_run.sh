#!/usr/bin/env bash
# The GPU half of the random-stencil differential tester: builds every file
# that `scripts/gpu_difftest.py emit DIR` generated with nvcc -DAN5D_VERIFY
# for sm_90, runs each against the C program, the smallest 20 also under
# compute-sanitizer memcheck and racecheck, and writes OUTDIR/results.csv,
# run.log, summary.txt and failures.tar.gz (scripts/gpu_difftest.py run).
#
#   scripts/gpu_difftest_run.sh DIR OUTDIR [--part K/N | --programs A-B] [run options]
#
# No work starts after $DEADLINE_S seconds (default 510), so that partial
# results come back from a 10-minute call; GPU_DIFFTEST_EMU=1 builds with
# build/bin/an5dc-emucc instead (the CPU emulation, no sanitizers).
set -u
if [ $# -lt 2 ]; then
  sed -n '2,13p' "$0"
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
out=$2
shift 2
mkdir -p "$out"

# nvcc and compute-sanitizer: PATH first, then the usual CUDA folders.
find_tool() {
  local t
  t=$(command -v "$1" 2>/dev/null) && { echo "$t"; return; }
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin /opt/cuda/bin \
           /usr/local/cuda/compute-sanitizer /usr/local/cuda-*/compute-sanitizer; do
    [ -x "$d/$1" ] && { echo "$d/$1"; return; }
  done
}
opts=()
if [ "${GPU_DIFFTEST_EMU:-0}" = 1 ]; then
  opts+=(--emu)
else
  nvcc=$(find_tool nvcc)
  if [ -z "$nvcc" ]; then
    echo "gpu_difftest_run: no nvcc on PATH or in /usr/local/cuda*/bin" | tee -a "$out/run.log"
    exit 2
  fi
  opts+=(--nvcc "$nvcc" --sanitizer "$(find_tool compute-sanitizer)")
  { "$nvcc" --version | tail -2; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } \
    >> "$out/run.log" 2>&1
fi
cc=$(command -v cc || command -v gcc || true)
exec python3 "$here/gpu_difftest.py" run "$dir" "$out" --cc "$cc" "${opts[@]}" "$@"
