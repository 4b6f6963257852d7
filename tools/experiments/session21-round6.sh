#!/usr/bin/env bash
# Session 21, round 6: the final sort code's sweeps for the pair kinds changed this session
# (1- and 2-byte keys with 8- and 16-byte values), other late tiles for one-byte keys with 16-byte
# values at 2^17-2^18 (session21_onesweep mid16), and the CPU sort through the CLI three times.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session21-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== pairs against CUB by size ($(date -u +%H:%M:%S))"
for kv in "u8 16" "i8 16" "u8 8" "i8 8" "u16 8" "i16 16"; do
  set -- $kv
  echo "-- $1 keys + $2-byte values ($(date -u +%H:%M:%S))"
  timeout 150 $S sweep sort --type $1 --pairs --value-bytes $2 --min-log 10 --max-log 28 --reps 7 --seed 8 --algo onesweep,cub --no-plot --out /tmp/s21-sweep-$1-v$2 2>&1 | grep -E "^2\^|rror" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
done
tar -C /tmp -cf $OUT/s21-sweeps.tar $(cd /tmp && ls s21-sweep-*.csv)
echo "=== onesweep tiles, one-byte keys with 16-byte values at 2^17-1.5 x 2^18 ($(date -u +%H:%M:%S))"
timeout 100 $B/session21_onesweep mid16 2>&1 | grep -E "^n =|x CUB"
echo "=== CPU sort, 2^27 uint32, three runs ($(date -u +%H:%M:%S))"
for seed in 41 42 43; do
  timeout 100 $S bench sort -n 2^27 --type u32 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $seed 2>&1 | grep -E "^cpu|rror"
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
