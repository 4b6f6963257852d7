#!/usr/bin/env bash
# Session 12, round 10: select_if single-pass tiles (small / medium) against CUB over the
# mid sizes where it trails (2^18-2^26, 50% and 1% selected), and the CPU sort bench twice more.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round10.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for p in 0.5 0.01; do
  echo "=== sweep compact select_if p=$p tile all ($(date -u +%H:%M:%S))"
  timeout 200 $S sweep compact --selectivity $p --algo single-pass --compare cub --tile all --device-only --reps 9 --seed 1 --min-log 18 --max-log 26 --out $OUT/sw-$p --no-plot 2>&1 | grep -vE "^\s*$" | grep -vE "^-+$" | tail -n 60
done
for seed in 4 5; do
  echo "=== CPU bench 2^27 u32 seed $seed ($(date -u +%H:%M:%S))"
  timeout 150 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $seed 2>&1 | grep -vE "^\s*$" | tail -n 7
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cp $OUT/sw-0.5*.csv $OUT/sw-0.01*.csv "$OUT"/ 2>/dev/null
ls $OUT
cat "$L"
