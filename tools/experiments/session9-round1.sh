#!/usr/bin/env bash
# Session 9, GPU round 1: the single-block sort (1024 threads, up to 16384 keys) and onesweep
# with fewer launches (plan made by the histogram's last block, look-back words zeroed by the
# previous pass, programmatic dependent launches). Quick sort tests, sanitizers on the small
# path, then onesweep against CUB over sizes.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session9-round1.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 5 /tmp/shard$i.txt; done
echo "=== racecheck small sort ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32.BitRanges*:*CudaSort_f64.BitRanges*' 2>&1 | tail -n 3
echo "=== memcheck + synccheck ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32*:*CudaSort_i64*' 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool synccheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32*' 2>&1 | tail -n 2
echo "=== sweeps ($(date -u +%H:%M:%S))"
X="--algo onesweep,cub --reps 7 --seed 1 --no-plot"
timeout 90 $S sweep sort --type u32 --min-log 10 --max-log 28 $X --out $OUT/s9r1-u32 2>&1 | grep -E "^ *[0-9]|onesweep|cub" | tail -n 45
timeout 60 $S sweep sort --type u64 --min-log 10 --max-log 22 $X --out $OUT/s9r1-u64 2>&1 | grep -E "onesweep|cub" | tail -n 30
timeout 60 $S sweep sort --type u32 --pairs --min-log 10 --max-log 22 $X --out $OUT/s9r1-u32p 2>&1 | grep -E "onesweep|cub" | tail -n 30
echo "=== sort parts ($(date -u +%H:%M:%S))"
timeout 60 $B/session9_sort_parts 7
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
