#!/usr/bin/env bash
# Session 12, round 8: the CPU radix sort with staged bucket outputs and up to 4 chunks per
# worker, through the bench, against std::sort(par) and tbb::parallel_sort in the same run.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for seed in 1 2 3; do
  echo "=== CPU bench 2^27 u32 seed $seed ($(date -u +%H:%M:%S))"
  timeout 150 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $seed 2>&1 | grep -vE "^\s*$" | tail -n 8
done
echo "=== CPU bench 2^27 u64 / u32 pairs ($(date -u +%H:%M:%S))"
timeout 100 $S bench sort -n 2^27 --type u64 --algo cpu-radix,cpu-std-sort-par --reps 3 --seed 1 2>&1 | grep -vE "^\s*$" | tail -n 6
timeout 100 $S bench sort -n 2^27 --pairs --algo cpu-radix --reps 3 --seed 1 2>&1 | grep -vE "^\s*$" | tail -n 4
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
