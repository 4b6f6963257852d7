#!/usr/bin/env bash
# Session 12, round 16: the final code's CPU sort (one stream_line helper) in the bench, three
# more seeds, and uint32 keys / pairs on the GPU once more as a check of the final build.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round16.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for seed in 8 9 10; do
  echo "=== CPU bench 2^27 u32 seed $seed ($(date -u +%H:%M:%S))"
  timeout 150 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $seed 2>&1 | grep -vE "^\s*$" | tail -n 7
done
R="--algo onesweep,cub --reps 7 --seed 1"
echo "-- u32"; $S bench sort -n 2^28 --type u32 $R 2>&1 | grep -E "^onesweep|^cub"
echo "-- u32 pairs"; $S bench sort -n 2^28 --type u32 --pairs $R 2>&1 | grep -E "^onesweep|^cub"
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
