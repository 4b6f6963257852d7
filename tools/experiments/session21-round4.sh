#!/usr/bin/env bash
# Session 21, round 4: one-byte keys with 16-byte values at 2^14-2^19 (smaller tiles, more
# blocks per SM; tools/experiments/session21_onesweep.cu small16), and the library's uint8 /
# int8 + 16-byte value rows around 2^19 (round 3's sweep had one 0.46x there) three times.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session21-round4.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== onesweep tiles, one-byte keys with 16-byte values, 2^14-2^19 ($(date -u +%H:%M:%S))"
timeout 200 $B/session21_onesweep small16
echo "=== the library, uint8 / int8 + 16-byte values, 2^17-2^21, three sweeps each ($(date -u +%H:%M:%S))"
for t in u8 i8; do for seed in 5 6 7; do
  echo -n "$t seed $seed: "
  timeout 60 $S sweep sort --type $t --pairs --value-bytes 16 --min-log 17 --max-log 21 --reps 9 --seed $seed --algo onesweep,cub --no-plot --out /tmp/s21r4-$t-$seed 2>&1 | grep -E "^2\^|rror" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
done; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
