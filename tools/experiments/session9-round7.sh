#!/usr/bin/env bash
# Session 9, GPU round 7 (the final build, as round 5): test_cuda_sort in full (two shards),
# memcheck and synccheck on the sort's quick suite, racecheck on a compaction subset, and the
# 2^28 sorts that changed since round 4.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session9-round7.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 420 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
SCANKIT_TEST_QUICK=1 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*Uint32AllPatterns*:*MisalignedPointers*' > /tmp/race.txt 2>&1; echo "[racecheck exit $?]" >> /tmp/race.txt
wait
for i in 0 1; do echo "=== test_cuda_sort shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== racecheck compaction subset"; tail -n 4 /tmp/race.txt
echo "=== memcheck, synccheck sort quick ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 90 compute-sanitizer --tool synccheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u64*:*CudaSort_u32*' 2>&1 | tail -n 2
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
$S bench sort -n 2^28 --type u32 --pairs --value-bytes 8 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
$S bench sort -n 2^28 --type u64 --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
$S bench sort -n 2^30 --type u32 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
