#!/usr/bin/env bash
# Installs what an5dc needs to build and test on Debian (run as root, or
# with sudo available). Does nothing for packages already installed.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

updated=0
apt_install() {
  local missing=()
  for p in "$@"; do installed "$p" || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $updated = 0 ]; then $SUDO apt-get update -qq; updated=1; fi
  echo "an5dc: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The newest LLVM/Clang from 14 to 19 that is installed, else that Debian has.
pick_llvm() {
  for v in 19 18 17 16 15 14; do
    if installed "libclang-$v-dev" && installed "llvm-$v-dev"; then echo $v; return; fi
  done
  if [ $updated = 0 ]; then $SUDO apt-get update -qq; updated=1; fi
  for v in 19 18 17 16 15 14; do
    if apt-cache show "libclang-$v-dev" >/dev/null 2>&1; then echo $v; return; fi
  done
  echo "an5dc: no LLVM/Clang 14..19 packages found" >&2; exit 1
}

apt_install ca-certificates cmake make g++ pkg-config python3 libisl-dev libgmp-dev libgtest-dev
# OpenMPI: the --mpi tests run the emulation under mpirun.
apt_install openmpi-bin libopenmpi-dev
V=$(pick_llvm)
apt_install "llvm-$V-dev" "llvm-$V-tools" "libclang-$V-dev" "clang-$V" "libclang-common-$V-dev"
echo "$V"
