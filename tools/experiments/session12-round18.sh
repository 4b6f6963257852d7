#!/usr/bin/env bash
# Session 12, round 18: bigger tiles that ptxas now fits without spills after the instruction
# cuts: 4-byte integer keys 512 x 24 (3 blocks/SM; was 512 x 22), 8-byte keys with 4-byte values
# 384 x 18 (was 384 x 16). Against rounds 13/14/16 (the same binary otherwise).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round18.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R="--algo onesweep,cub --reps 7"
for seed in 1 2; do
  echo "-- u32 seed $seed"; $S bench sort -n 2^28 --type u32 $R --seed $seed 2>&1 | grep -E "tile|^onesweep|^cub"
  echo "-- u64 pairs 4-byte values 2^27 seed $seed"; $S bench sort -n 2^27 --type u64 --pairs $R --seed $seed 2>&1 | grep -E "tile|^onesweep|^cub"
done
echo "-- u32 2^30"; $S bench sort -n 2^30 --type u32 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
