#!/usr/bin/env bash
# Session 8, GPU round 18 (review clean-ups: the striped scan kernel finishes with tile::finish,
# onesweep loads values through one helper): test_cuda_scan and test_cuda_sort in full (sort as
# two shards), memcheck on the onesweep and scan quick subsets, and the sort/scan benchmarks
# that the clean-ups touch, against CUB.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session8-round18.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 420 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
timeout 150 $B/test_cuda_scan --gtest_brief=1 > /tmp/scan.txt 2>&1; echo "[scan exit $?]" >> /tmp/scan.txt
wait
echo "=== test_cuda_scan"; tail -n 4 /tmp/scan.txt
for i in 0 1; do echo "=== test_cuda_sort shard $i"; tail -n 3 /tmp/shard$i.txt; done
echo "=== memcheck ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*onesweep*' 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*EveryTypeAndOperator*:*NonCommutativeAffine*' 2>&1 | tail -n 2
echo "=== benches ($(date -u +%H:%M:%S))"
X="--algo onesweep,cub --reps 7 --seed 1"
$S bench sort -n 2^28 --type u32 --pairs $X 2>&1 | grep -E "^onesweep|^cub"
$S bench sort -n 2^28 --type u32 --pairs --value-bytes 8 $X 2>&1 | grep -E "^onesweep|^cub"
$S bench sort -n 2^28 --type u32 $X 2>&1 | grep -E "^onesweep|^cub"
$S bench scan -n 2^20 --reps 20 --algo decoupled-lookback --compare cub --device-only 2>&1 | grep -E "^decoupled|^cub"
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
