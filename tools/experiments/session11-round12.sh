#!/usr/bin/env bash
# Session 11, round 12: after the review change (the plan's raw_in flag dropped: a pass reads
# the caller's raw keys exactly when its source is still buffer 0). Quick sort tests, the
# float / int8 suites in full, verify sort, and the float rows against CUB.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round12.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== full f32/f64/i8 suites ($(date -u +%H:%M:%S))"
timeout 200 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*f32*:*f64*:*i8*:*FloatTotalOrder*' 2>&1 | tail -n 3
echo "=== verify sort"; timeout 120 $S verify sort --cases 200 2>&1 | grep -E "FAIL|passed"
R="--algo onesweep,cub --reps 7 --seed 1"
echo "-- f32"; $S bench sort -n 2^28 --type f32 $R 2>&1 | grep -E "^onesweep|^cub"
echo "-- f32 pairs"; $S bench sort -n 2^28 --type f32 --pairs $R 2>&1 | grep -E "^onesweep|^cub"
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
