#!/usr/bin/env bash
# Session 10, round 5: why did float keys lose 0.24 ms in round 4? The library's histogram
# and whole sort against CUB for uint32, float (2^28) and double (2^27), twice; the CPU bench
# twice more (its spread).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session10-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 $B/session10_histogram 15 whole
for t in f32 u32; do $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
for i in 1 2; do echo "=== CPU bench 2^27 ($(date -u +%H:%M:%S))"
timeout 200 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par --reps 5 --seed $i 2>&1 | grep -E "^cpu|vs"; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
