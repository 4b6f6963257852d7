#!/usr/bin/env bash
# Session 10, round 6: the library histogram with streaming loads and one order transform per
# key, against the experiment's variants; whole sorts; the CPU bench (all of its output).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session10-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 $B/session10_histogram 15
timeout 120 $B/session10_histogram 15 whole
for t in f32 u32 u64 f64; do $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
echo "=== CPU bench 2^27 ($(date -u +%H:%M:%S))"
timeout 200 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par --reps 5 --seed 2 2>&1 | tail -n 6
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
