#!/bin/sh
# Stands in for ncu in the runner's tests: logs its arguments to ncu.log next
# to this script and prints the parts of a --print-details report that the
# runner reads, with the numbers of one real report (star3d3r float, H200).
echo "ncu $*" >> "$(dirname "$0")/ncu.log"
cat <<'EOS'
==PROF== Connected to process 1
  an5d_kernel_deg1(float *, int, int, an5d_tiles, int, int, int, int, int, int, int, int, int) (20, 32, 16)x(32, 8, 1), Context 1, Stream 7, Device 0, CC 9.0
    Section: GPU Speed Of Light Throughput
    DRAM Throughput                   %        42.28
    Duration                         us       540.42
    L2 Cache Throughput               %        73.30
    SM: Inst Executed Pipe Lsu                                                          %        75.25
    SM: Issue Active                                                                    %        59.28
    SM: Pipe Fma Cycles Active                                                          %        25.02
    SM: Pipe Fp64 Cycles Active                                                         %            0
    L1: Data Pipe Lsu Wavefronts                                       %        78.36
    Issue Slots Busy                 %        59.28
    Stall Barrier                   inst         0.42
    DRAM Throughput                                      %        99.99
EOS
