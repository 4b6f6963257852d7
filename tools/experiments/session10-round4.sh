#!/usr/bin/env bash
# Session 10, round 4: onesweep with the replicated-counter histogram (16 copies for 4-byte
# keys, 8 for 8-byte, 32 for 1-2 byte; 512 threads, 12 blocks per SM): quick CUDA sort tests,
# memcheck/racecheck on a subset, 2^28 figures, small-size sweeps; CPU bench again.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session10-round4.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 3 /tmp/shard$i.txt; done
echo "=== memcheck / racecheck ($(date -u +%H:%M:%S))"
F='*CudaSort_u32*:*CudaSort_u64*:*CudaSort_u8*:*CudaSortLarge*'
SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter="$F" 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32*:*CudaSort_u16*' 2>&1 | tail -n 2
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
for t in u32 u64 f64 f32 u16 u8; do $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
$S bench sort -n 2^28 --type u32 --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
$S bench sort -n 2^30 --type u32 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
for t in u32 u64; do echo "-- sweep $t"; timeout 90 $S sweep sort --type $t --min-log 10 --max-log 26 $X --out /tmp/so-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "=== CPU bench 2^27 ($(date -u +%H:%M:%S))"
timeout 200 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed 1 2>&1 | grep -vE "^\s*$" | tail -n 8
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
