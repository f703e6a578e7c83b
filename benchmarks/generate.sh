#!/usr/bin/env bash
# Generates CUDA for the 21 Table-3 benchmarks in float and double:
#   benchmarks/generate.sh OUTDIR [an5dc options...]
# writes OUTDIR/<stencil>.<float|double>.cu (and stops at the first failure).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
an5dc=${AN5DC:-$here/../build/bin/an5dc}
out=$1; shift
mkdir -p "$out"
for src in "$here"/*.c; do
  name=$(basename "$src" .c)
  "$an5dc" "$src" "$@" -o "$out/$name.float.cu"
  "$an5dc" "$src" "$@" -o "$out/$name.double.cu" -- -DUSE_DOUBLE
done
echo "generated $(ls "$out"/*.cu | wc -l) files in $out"
