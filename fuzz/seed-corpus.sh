#!/bin/sh
# Gathers the fuzzer's seed corpus into DIR: every C input of the tests
# (test/**/*.c, including test/**/Inputs/) and the benchmarks, each behind
# the byte that picks the fuzzer's option set (FrontendFuzzer.cpp): once
# with set 0 (the model's choice) and once with a set cycling through 1..8.
# Files over 8 KiB are left out: the 3D box stencils of radius 2 to 4 take
# seconds in the release build (box3d3r.c 1.5 to 2.4 s, box3d4r.c 4.5 s),
# over the fuzzer's 20 s timeout under the sanitizers, and the fuzzer runs
# with -max_len=8192.
# Usage: fuzz/seed-corpus.sh DIR
set -eu
if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
src=$(cd "$(dirname "$0")/.." && pwd)
out=$1
mkdir -p "$out"
n=0
find "$src/test" "$src/benchmarks" -maxdepth 3 -name '*.c' -type f -size -8193c | LC_ALL=C sort |
while IFS= read -r f; do
  n=$((n + 1))
  set=$((n % 8 + 1))
  name=$(printf '%s' "${f#$src/}" | tr '/' '_')
  { printf '\000'; cat "$f"; } > "$out/0_$name"
  { printf "\\$(printf '%03o' "$set")"; cat "$f"; } > "$out/${set}_$name"
done
