#!/usr/bin/env bash
# Installs the dependencies, then configures and builds an5dc in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
V=$(bash scripts/install-deps.sh | tail -n 1)
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLLVM_DIR="/usr/lib/llvm-$V/lib/cmake/llvm" >/dev/null
fi
cmake --build build -j "$(nproc)"
