#!/usr/bin/env bash
# Session 19, round 8: the final onesweep thresholds (large pairs tiles from 2^22 with 8-byte
# values, 4-byte keys only; 1- and 2-byte keys keep their tile): sweeps of the 8-byte-value
# pairs around the new threshold, and the 1- and 2-byte keys with values at 2^28.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session19-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R="--algo onesweep,cub --reps 9 --seed 1"
for t in i8 u16; do echo "-- $t + 4-byte values, 2^28"; timeout 60 $S bench sort -n 2^28 --type $t --pairs $R 2>&1 | grep -E "tile|^onesweep|^cub"; done
X="--algo onesweep,cub --reps 9 --seed 2 --no-plot --pairs"
for spec in "u32 8" "u64 8"; do set -- $spec
  echo "-- sweep $1 + $2-byte values ($(date -u +%H:%M:%S))"
  timeout 100 $S sweep sort --type $1 --value-bytes $2 --min-log 18 --max-log 26 $X --out /tmp/so-$1-$2 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
