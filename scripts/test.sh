#!/usr/bin/env bash
# Sets everything up on a fresh Debian machine, builds an5dc and runs the
# whole test suite (lit tests and unit tests). Ends with one summary line:
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
LLVM_DIR=$(sed -n 's/^LLVM_DIR:[A-Z]*=//p' build/CMakeCache.txt)
LIT="$LLVM_DIR/../../../build/utils/lit/lit.py"
[ -f "$LIT" ] || LIT=$(command -v lit || command -v lit.py || echo lit-not-found)

passed=0; failed=0
log=$(mktemp)
python3 "$LIT" -sv -j "$(nproc)" build/test 2>&1 | tee "$log"
# "  Passed: 264" (lit 14) or "  Passed: 264 (98.14%)" (lit 17+): the number
# after the colon.
count() { awk -v re="$1" '$0 ~ "^ *(" re ") *: *[0-9]+" { sub(/^[^:]*: */, ""); n += $1 } END { print n + 0 }' "$log"; }
lit_pass=$(count "Passed|Expectedly Failed")
lit_fail=$(count "Failed|Unexpectedly Passed|Unresolved|Timed Out")
passed=$((passed + ${lit_pass:-0})); failed=$((failed + ${lit_fail:-0}))
if ! grep -qE '^ *(Passed|Failed)' "$log"; then failed=$((failed + 1)); fi

if [ -x build/bin/an5d-unittests ]; then
  build/bin/an5d-unittests --gtest_brief=1 2>&1 | tee "$log"
  u_pass=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | head -1)
  u_fail=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | head -1)
  passed=$((passed + ${u_pass:-0})); failed=$((failed + ${u_fail:-0}))
  [ -z "$u_pass$u_fail" ] && failed=$((failed + 1))
else
  failed=$((failed + 1)); echo "unit tests were not built"
fi
rm -f "$log"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
