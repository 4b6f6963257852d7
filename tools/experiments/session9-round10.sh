#!/usr/bin/env bash
# Session 9, GPU round 10, after the review clean-ups (digit_of::sortable / raw / of_sortable
# shared by onesweep's float path and the single-block sort; one per-device cache for the
# dependent-launch check): quick CUDA tests, memcheck on the touched sorts, speeds unchanged?
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session9-round10.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
(for t in scan compact; do SCANKIT_TEST_QUICK=1 timeout 150 $B/test_cuda_$t --gtest_brief=1 > /tmp/$t.txt 2>&1; echo "[$t exit $?]" >> /tmp/$t.txt; done) &
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 3 /tmp/shard$i.txt; done
for t in scan compact; do echo "=== test_cuda_$t quick"; tail -n 3 /tmp/$t.txt; done
echo "=== memcheck ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_f32*:*CudaSort_i16*' 2>&1 | tail -n 2
echo "=== bench ($(date -u +%H:%M:%S))"
for t in f32 f64 u32; do $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
for t in u32 f64; do echo "-- $t"; timeout 60 $S sweep sort --type $t --min-log 10 --max-log 14 $X --out /tmp/so-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
