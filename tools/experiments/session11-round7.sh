#!/usr/bin/env bash
# Session 11, round 7: after the review changes (one cached device-attribute lookup in place of
# three; histogram_shape without its unused key type; the CPU sorts' public overloads through
# one checked call). Quick CUDA suites of every primitive, memcheck on two of them, and one
# bench row per primitive against CUB (no speed change expected).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round7.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
(for t in scan compact histogram; do SCANKIT_TEST_QUICK=1 timeout 200 $B/test_cuda_$t --gtest_brief=1 > /tmp/$t.txt 2>&1; echo "[$t exit $?]" >> /tmp/$t.txt; done) &
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 4 /tmp/shard$i.txt; done
for t in scan compact histogram; do echo "=== test_cuda_$t quick"; tail -n 4 /tmp/$t.txt; done
echo "=== memcheck ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_histogram --gtest_brief=1 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32*:*CudaSort_f64*' 2>&1 | tail -n 2
echo "=== bench ($(date -u +%H:%M:%S))"
$S bench sort -n 2^28 --type u32 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
$S bench sort -n 2^12 --type u32 --algo onesweep,cub --reps 15 --seed 1 2>&1 | grep -E "^onesweep|^cub"
$S bench scan -n 2^28 --algo decoupled-lookback --compare cub,copy --reps 9 --seed 1 2>&1 | tail -n 6
$S bench compact -n 2^28 --algo single-pass --reps 9 --seed 1 2>&1 | tail -n 5
$S bench histogram --reps 7 --seed 1 2>&1 | tail -n 6
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
