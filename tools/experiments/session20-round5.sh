#!/usr/bin/env bash
# Session 20, round 5: (a) onesweep shapes for one-byte keys with 4-byte values at 2^14-2^22
# (session8_onesweep.cu s20b; the library's 512 x 24 ran at 0.88-0.97x CUB at 2^14-2^19 in
# round 4), with the final copy's launch skipped for sorts that are not in place; (b) the pair
# kinds no sweep had covered (1- and 2-byte keys with 8- and 16-byte values, 2-byte keys with
# 4-byte values), coarse; (c) 16-byte values with the final thresholds, by size.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session20-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== onesweep, one-byte keys with 4-byte values, mid sizes ($(date -u +%H:%M:%S))"
timeout 200 $B/session8_onesweep s20b
for a in "u8 8" "u8 16" "u16 4" "u16 8" "u16 16" "i8 4"; do
  set -- $a
  echo "=== $1 + $2-byte values by size ($(date -u +%H:%M:%S))"
  timeout 100 $S sweep sort --type $1 --pairs --value-bytes $2 --min-log 10 --max-log 26 --reps 5 --seed 6 --algo onesweep,cub --no-plot \
    --out /tmp/s20-$1-$2 2>&1 | grep -E "^2\^" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
done
for t in u32 u64; do
  echo "=== $t + 16-byte values by size, final thresholds ($(date -u +%H:%M:%S))"
  timeout 150 $S sweep sort --type $t --pairs --value-bytes 16 --min-log 10 --max-log 28 --reps 7 --seed 7 --algo onesweep,cub --no-plot \
    --out $OUT/s20-sweep-$t-v16-final 2>&1 | grep -E "^2\^" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
