#!/usr/bin/env bash
# Session 11, round 3: the final shapes (float/int8 keys on the integer shapes, uint64 keys
# 512 x 18, 4-byte keys + 8-byte values 512 x 14). test_cuda_sort in full (two shards),
# memcheck on a subset, racecheck and synccheck through the CLI on the kernels that changed,
# onesweep against CUB at 2^28 for every key type and the pair shapes, 2^30 / 2^29, sweeps.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 280 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort FULL shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== sanitizers ($(date -u +%H:%M:%S))"
echo "-- memcheck"; SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u64*:*CudaSort_f32*' 2>&1 | tail -n 2
for tool in racecheck synccheck; do
  for a in "--type f32" "--type f32 --pairs" "--type i8 --pairs" "--type u64" "--type u32 --pairs --value-bytes 8" "--type f64 --descending"; do
    echo "-- $tool $a"; timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 2^20 $a --algo onesweep --no-cub --reps 1 --seed 3 2>&1 | grep -E "^onesweep|ERROR SUMMARY|RACECHECK SUMMARY|hazard" | head -n 3
  done
done
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
R="--algo onesweep,cub --reps 7 --seed 1"
for t in u32 i32 f32 u64 i64 f64 u16 i16 u8 i8; do echo "-- $t"; $S bench sort -n 2^28 --type $t $R 2>&1 | grep -E "^onesweep|^cub"; done
for t in u32 f32 i8; do echo "-- $t pairs, 4-byte values"; $S bench sort -n 2^28 --type $t --pairs --value-bytes 4 $R 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u32 pairs, 8-byte values"; $S bench sort -n 2^28 --type u32 --pairs --value-bytes 8 $R 2>&1 | grep -E "^onesweep|^cub"
for vb in 4 8; do echo "-- u64 pairs, $vb-byte values, 2^27"; $S bench sort -n 2^27 --type u64 --pairs --value-bytes $vb $R 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u32 2^30"; $S bench sort -n 2^30 --type u32 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "-- f32 2^30"; $S bench sort -n 2^30 --type f32 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "-- u64 2^29"; $S bench sort -n 2^29 --type u64 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
for t in f64 i8; do echo "-- sweep $t"; timeout 90 $S sweep sort --type $t --min-log 10 --max-log 26 $X --out /tmp/so-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "-- sweep f32 pairs"; timeout 90 $S sweep sort --type f32 --pairs --min-log 10 --max-log 26 $X --out /tmp/so-fp 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
