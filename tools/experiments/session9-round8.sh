#!/usr/bin/env bash
# Session 9, GPU round 8: round 7 found 2^30 uint32 keys at 0.45x CUB: the portion of one
# tile that follows a full portion (n >= 2^30) cleared a whole portion's look-back words with
# its one block. Now the host clears them when the next launch has more tiles than this one.
# The sort tests (full; the 2^30 test included), memcheck, and the 2^30 / 2^28 sorts.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session9-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== bench ($(date -u +%H:%M:%S))"
$S bench sort -n 2^30 --type u32 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
$S bench sort -n 2^28 --type u32 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
$S bench sort -n 2^30 --type u64 --algo onesweep,cub --reps 3 --seed 1 2>&1 | grep -E "^onesweep|^cub"
$S bench sort -n 2^30 --type u32 --pairs --algo onesweep,cub --reps 3 --seed 1 2>&1 | grep -E "^onesweep|^cub"
$S bench scan -n 2^30 --type i32 --reps 5 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^decoupled|^cub|^copy"
$S bench compact -n 2^30 --selectivity 0.5 --algo single-pass --compare cub --device-only --reps 5 --seed 1 2>&1 | grep -E "^single|^cub"
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 420 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== memcheck sort quick ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 2
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
