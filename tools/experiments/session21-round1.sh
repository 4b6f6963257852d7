#!/usr/bin/env bash
# Session 21, round 1: the CPU sort at 2^27 uint32 (session 21's harness on session 20's code
# and on the new code, alternating; then the CLI against std::sort(par)), and the pair kinds
# that had no CUB row before (1-, 2-byte and float keys with 8- and 16-byte values, and some
# signed ones) swept against CUB from 2^10 to 2^28.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session21-round1.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "$(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo)"
echo "=== CPU sort harness, 2^27 uint32, 9 runs each: base (session 20) / new, three times ($(date -u +%H:%M:%S))"
for i in 1 2 3; do
  echo -n "base: "; timeout 60 $B/session21_cpu_sort_base 27 9
  echo -n "new:  "; timeout 60 $B/session21_cpu_sort_new 27 9
done
echo "=== CPU sort through the CLI ($(date -u +%H:%M:%S))"
for seed in 21 22; do
  timeout 100 $S bench sort -n 2^27 --type u32 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $seed 2>&1 | grep -E "^cpu|rror"
done
echo "=== pairs against CUB by size ($(date -u +%H:%M:%S))"
for kv in "u8 8" "u8 16" "u16 8" "u16 16" "f32 8" "f32 16" "f64 8" "f64 16" "i8 8" "i8 16" "i16 8" "i16 16" "i32 16" "i64 8"; do
  set -- $kv
  echo "-- $1 keys + $2-byte values ($(date -u +%H:%M:%S))"
  timeout 150 $S sweep sort --type $1 --pairs --value-bytes $2 --min-log 10 --max-log 28 --reps 5 --seed 3 --algo onesweep,cub --no-plot --out /tmp/s21-$1-$2 2>&1 | grep -E "^2\^|rror" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
