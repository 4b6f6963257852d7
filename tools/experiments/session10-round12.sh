#!/usr/bin/env bash
# Session 10, round 12: the CPU sort at 2^27 on the final code (every worker reserving its
# bucket buffers up front), three runs.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session10-round12.log
{
for i in 1 2 3; do echo "=== CPU bench 2^27 ($(date -u +%H:%M:%S))"
timeout 200 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $i 2>&1 | tail -n 7; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
