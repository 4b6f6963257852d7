#!/usr/bin/env bash
# Session 21, round 2: the CPU sort harness again, session 20's code against the new code
# without round 1's fused count (which lost); and tiles for 1- and 2-byte keys with 8- and
# 16-byte values (tools/experiments/session21_onesweep.cu), against CUB.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session21-round2.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== CPU sort harness, 2^27 uint32, 9 runs each: base (session 20) / new, four times ($(date -u +%H:%M:%S))"
for i in 1 2 3 4; do
  echo -n "base: "; timeout 60 $B/session21_cpu_sort_base 27 9
  echo -n "new:  "; timeout 60 $B/session21_cpu_sort_new 27 9
done
echo "=== onesweep tiles, narrow keys with wide values ($(date -u +%H:%M:%S))"
timeout 400 $B/session21_onesweep all
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
