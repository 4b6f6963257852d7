#!/usr/bin/env bash
# Session 11, round 11: small sizes on the final code (every kernel with dynamic shared memory
# now goes through the cached limit lookup on each launch): scan and sort sweeps against CUB.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round11.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in i32 i64; do echo "-- scan sweep $t"; timeout 120 $S sweep scan --type $t --algo decoupled-lookback --compare cub --device-only --reps 9 --seed 1 --min-log 10 --max-log 20 --no-plot --out /tmp/sc-$t > /dev/null 2>&1; cat /tmp/sc-$t.csv; done
echo "-- sort sweep u32"; timeout 60 $S sweep sort --type u32 --algo onesweep,cub --reps 15 --seed 1 --no-plot --min-log 10 --max-log 16 --out /tmp/so 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "-- compact 2^28"; $S bench compact -n 2^28 --algo single-pass --reps 9 --seed 1 2>&1 | tail -n 4
echo "-- verify compact"; timeout 120 $S verify compact 2>&1 | tail -n 2
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
