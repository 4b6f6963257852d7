#!/usr/bin/env bash
# Session 12, round 14: 4-byte keys with 8-byte values at 512 x 13 (512 x 14 spilled 8 bytes
# after round 13's changes), against CUB at 2^28, with the other shapes again for the spread.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round14.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R="--algo onesweep,cub --reps 7"
for seed in 1 2; do
  for t in u32 f32; do echo "-- $t pairs, 8-byte values, seed $seed"; $S bench sort -n 2^28 --type $t --pairs --value-bytes 8 $R --seed $seed 2>&1 | grep -E "^onesweep|^cub"; done
  echo "-- u32 pairs, 4-byte values, seed $seed"; $S bench sort -n 2^28 --type u32 --pairs $R --seed $seed 2>&1 | grep -E "^onesweep|^cub"
  echo "-- u32, seed $seed"; $S bench sort -n 2^28 --type u32 $R --seed $seed 2>&1 | grep -E "^onesweep|^cub"
done
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
echo "-- sweep u32 + 8-byte values"; timeout 90 $S sweep sort --type u32 --pairs --value-bytes 8 --min-log 14 --max-log 26 $X --out /tmp/so-u32p8 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
for tool in racecheck synccheck; do echo "-- $tool u32 + 8-byte values"; timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 2^20 --type u32 --pairs --value-bytes 8 --algo onesweep --no-cub --reps 1 --seed 3 2>&1 | grep -E "^onesweep|ERROR SUMMARY|RACECHECK SUMMARY" | head -n 3; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
