#!/usr/bin/env bash
# Session 19, round 6: onesweep pairs with the large tiles: bench rows at 2^28 (every pair
# kind, CUB in the same process) and size sweeps 2^10-2^28 against CUB; then keys alone with
# bigger tiles (session8_onesweep s19d).
set -uo pipefail
mkdir -p .devbundle/x && for b in bin s19s; do tar -C .devbundle/x -xJf .devbundle/$b.tar.xz; done
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session19-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R="--algo onesweep,cub --reps 7 --seed 1"
for spec in "u32 4 2^28" "u32 4 2^30" "i32 4 2^28" "f32 4 2^28" "i8 4 2^28" "u16 4 2^28" "u32 8 2^28" "f32 8 2^28" "u64 4 2^28" "i64 4 2^28" "f64 4 2^28" "u64 8 2^27" "f64 8 2^27" "u64 4 2^29"; do set -- $spec
  echo "-- $1 + $2-byte values, n = $3"; timeout 60 $S bench sort -n $3 --type $1 --pairs --value-bytes $2 $R 2>&1 | grep -E "tile|^onesweep|^cub"
done
echo "-- u32 keys (unchanged)"; timeout 60 $S bench sort -n 2^28 --type u32 $R 2>&1 | grep -E "^onesweep|^cub"
X="--algo onesweep,cub --reps 7 --seed 1 --no-plot --pairs"
for spec in "u32 4 10" "u64 4 10" "u32 8 14" "u64 8 14"; do set -- $spec
  echo "-- sweep $1 + $2-byte values ($(date -u +%H:%M:%S))"
  timeout 100 $S sweep sort --type $1 --value-bytes $2 --min-log $3 --max-log 28 $X --out /tmp/so-$1-$2 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
done
echo "=== keys alone, bigger tiles ($(date -u +%H:%M:%S))"; timeout 100 .devbundle/x/s19s/session8_onesweep s19d
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
