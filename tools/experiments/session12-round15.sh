#!/usr/bin/env bash
# Session 12, round 15: the final code. test_cuda_sort in full (two shards), verify sort on a
# new seed, memcheck on a subset, sweeps 2^10-2^26 for the key types and pair shapes (never
# slower than CUB?), and the CPU bench twice more.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round15.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 280 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort FULL shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== verify ($(date -u +%H:%M:%S))"; timeout 150 $S verify sort --cases 300 --seed 1212 2>&1 | tail -n 2
echo "-- memcheck"; SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u64*:*CudaSort_f32*:*Large*' 2>&1 | tail -n 2
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
for t in u16 u64 f64 i8; do echo "-- sweep $t ($(date -u +%H:%M:%S))"; timeout 90 $S sweep sort --type $t --min-log 10 --max-log 26 $X --out /tmp/so-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "-- sweep u64 pairs 4-byte values"; timeout 120 $S sweep sort --type u64 --pairs --min-log 10 --max-log 26 $X --out /tmp/so-u64p 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
for seed in 6 7; do
  echo "=== CPU bench 2^27 u32 seed $seed ($(date -u +%H:%M:%S))"
  timeout 150 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $seed 2>&1 | grep -vE "^\s*$" | tail -n 7
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
