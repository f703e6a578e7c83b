#!/usr/bin/env bash
# Sets everything up on a fresh Debian machine, builds an5dc and runs it on
# the bundled j2d5pt example (benchmarks/j2d5pt.c): prints the stencil
# description, its analysis and its isl model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
example=${1:-benchmarks/j2d5pt.c}
echo "== an5dc $example --dump=stencil"
build/bin/an5dc "$example" --dump=stencil
echo "== an5dc $example --dump=scop"
build/bin/an5dc "$example" --dump=scop
