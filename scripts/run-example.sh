#!/usr/bin/env bash
# Sets everything up on a fresh Debian machine, builds an5dc and runs the
# main job on the bundled example, benchmarks/j2d5pt.c:
#   1. shows what an5dc understood of the stencil (--dump=stencil);
#   2. generates CUDA with N.5D temporal blocking (an5dc -bT 4 -o j2d5pt.cu);
#   3. builds the generated file with -DAN5D_VERIFY and runs it, so it checks
#      itself against the original C loop: on the GPU when nvcc and a GPU are
#      there, otherwise through the CPU emulation of CUDA (an5dc-emucc).
# Usage: scripts/run-example.sh [input.c [program arguments...]]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
example=${1:-benchmarks/j2d5pt.c}
shift || true
args=("$@"); [ ${#args[@]} -eq 0 ] && args=(256 256 10)
out=build/example; mkdir -p "$out"
name=$(basename "$example" .c)

echo "== an5dc $example --dump=stencil"
build/bin/an5dc "$example" --dump=stencil
echo "== an5dc $example -bT 4 -o $out/$name.cu"
build/bin/an5dc "$example" -bT 4 -o "$out/$name.cu"
if command -v nvcc >/dev/null && nvidia-smi >/dev/null 2>&1; then
  echo "== nvcc -O3 -arch=sm_90 -DAN5D_VERIFY $out/$name.cu (GPU)"
  nvcc -O3 -arch=sm_90 -DAN5D_VERIFY -Xcompiler -fopenmp "$out/$name.cu" -o "$out/$name" -lgomp
else
  echo "== an5dc-emucc -DAN5D_VERIFY $out/$name.cu (no GPU here: CPU emulation of CUDA)"
  build/bin/an5dc-emucc "$out/$name.cu" -o "$out/$name" -DAN5D_VERIFY -I "$(dirname "$example")"
fi
echo "== $out/$name ${args[*]}"
AN5D_TIMING=1 "$out/$name" "${args[@]}"
