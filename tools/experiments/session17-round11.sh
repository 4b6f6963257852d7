#!/usr/bin/env bash
# Session 17, round 11: the CPU parallel select_if's block size on the device host
# (session17_cpu_compact: 2^28 uint32, half selected, against cpu::parallel_copy).
set -uo pipefail
mkdir -p .devbundle/y && tar -C .devbundle/y -xJf .devbundle/r11.tar.xz
B=$PWD/.devbundle/y/bin; export LD_LIBRARY_PATH=$B
{ echo "=== $(date -u +%H:%M:%S), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo)"; timeout 150 $B/session17_cpu_compact; echo "=== end $(date -u +%H:%M:%S)"; } > $OUT/session17-round11.log 2>&1
cat $OUT/session17-round11.log
