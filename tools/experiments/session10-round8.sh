#!/usr/bin/env bash
# Session 10, round 8: the histogram's copies fitted to the first pass's shared memory per SM
# (histogram_parts_within: float keys 8, 8-byte keys 4, float pairs 4; uint32 keys still 16).
# Does float get its 0.27 ms back, and do the 8-byte keys lose anything?
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session10-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 $B/session10_histogram 15 whole
for t in f32 u32 u64 f64 u16 i8; do echo "-- $t"; $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
for t in f32 u32; do echo "-- $t pairs"; $S bench sort -n 2^28 --type $t --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u64 2^27 pairs"; $S bench sort -n 2^27 --type u64 --pairs --value-bytes 4 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
for t in f32 u64; do echo "-- sweep $t"; timeout 90 $S sweep sort --type $t --min-log 14 --max-log 26 $X --out /tmp/so-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
