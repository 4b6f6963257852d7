#!/usr/bin/env bash
# Session 11, round 1: float and int8 keys hold their sortable bits between passes and take
# the integer shapes (512 x 22 at 3 blocks per SM; pairs 384 x 28 staged early). Quick CUDA
# sort tests in two shards plus the float/int8 suites in full, memcheck on them, and onesweep
# against CUB at 2^28 for the key types and pairs whose kernels changed (uint32 as a control).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round1.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== full f32/f64/i8 suites ($(date -u +%H:%M:%S))"
timeout 200 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*f32*:*f64*:*i8*:*FloatTotalOrder*' 2>&1 | tail -n 4
echo "=== memcheck ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_f32*:*CudaSort_i8*' 2>&1 | tail -n 2
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
for t in u32 f32 f64 i8; do echo "-- $t"; $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- f32 descending"; $S bench sort -n 2^28 --type f32 --descending --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
for t in u32 f32 i8 u8 f64; do echo "-- $t pairs, 4-byte values"; $S bench sort -n 2^28 --type $t --pairs --value-bytes 4 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- f32 pairs, 8-byte values"; $S bench sort -n 2^28 --type f32 --pairs --value-bytes 8 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "-- i8 keys, bits 0-4 (onesweep, not counting)"; $S bench sort -n 2^28 --type i8 --bits 5 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
for t in f32; do echo "-- sweep $t"; timeout 90 $S sweep sort --type $t --min-log 10 --max-log 26 $X --out /tmp/so-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
