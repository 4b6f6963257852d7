#!/usr/bin/env bash
# Session 11, round 6 (trial shapes, CLI only; tests not rebuilt): uint64 keys 448 x 22,
# 4-byte keys + 8-byte values 448 x 18, 8-byte keys + 4-byte values 448 x 16, 4-byte pairs
# 416 x 28, against CUB at 2^28 / 2^27 (round 3 has the current shapes on the same inputs).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R="--algo onesweep,cub --reps 7 --seed 1"
for t in u64 f64; do echo "-- $t"; $S bench sort -n 2^28 --type $t $R 2>&1 | grep -E "^onesweep|^cub"; done
for t in u32 f32; do echo "-- $t pairs, 4-byte values"; $S bench sort -n 2^28 --type $t --pairs --value-bytes 4 $R 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u32 pairs, 8-byte values"; $S bench sort -n 2^28 --type u32 --pairs --value-bytes 8 $R 2>&1 | grep -E "^onesweep|^cub"
echo "-- u64 pairs, 4-byte values, 2^27"; $S bench sort -n 2^27 --type u64 --pairs --value-bytes 4 $R 2>&1 | grep -E "^onesweep|^cub"
echo "-- u32 pairs 2^30"; $S bench sort -n 2^30 --type u32 --pairs --value-bytes 4 --algo onesweep,cub --reps 3 --seed 1 2>&1 | grep -E "^onesweep|^cub"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot --min-log 17 --max-log 26"
echo "-- sweep u32 pairs"; timeout 60 $S sweep sort --type u32 --pairs $X --out /tmp/so-p 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "-- sweep u64"; timeout 60 $S sweep sort --type u64 $X --out /tmp/so-u 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
