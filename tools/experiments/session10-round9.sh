#!/usr/bin/env bash
# Session 10, round 9, the final state: the CPU sort first (before any GPU work, which
# round 3 did and rounds 4 and 7 did not), then quick CUDA tests, sanitizers on sort subsets
# (racecheck on a small one), the GPU sort table at 2^28, and the CPU sort again at the end.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session10-round9.log
cpu() { for i in 1 2; do echo "=== CPU bench 2^27 ($(date -u +%H:%M:%S))"; grep -E "AnonHugePages" /proc/meminfo
timeout 200 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $i 2>&1 | tail -n 7; done; }
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cpu
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 3 /tmp/shard$i.txt; done
echo "=== sanitizers ($(date -u +%H:%M:%S))"
echo "-- memcheck"; SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32*:*CudaSort_f32*:*CudaSort_u64*:*CudaSort_i8*' 2>&1 | tail -n 2
echo "-- racecheck"; SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32*' 2>&1 | tail -n 2
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
for t in u32 f32 u64 f64 u16; do echo "-- $t"; $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
for t in u32 f32; do echo "-- $t pairs"; $S bench sort -n 2^28 --type $t --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u32 pairs 8-byte values"; $S bench sort -n 2^28 --type u32 --pairs --value-bytes 8 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "-- u64 2^27 pairs"; $S bench sort -n 2^27 --type u64 --pairs --value-bytes 4 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
cpu
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
