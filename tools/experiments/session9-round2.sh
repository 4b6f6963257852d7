#!/usr/bin/env bash
# Session 9, GPU round 2: the single-block sort with a 4-item tile too, dynamic shared memory
# limits set once per kernel and device, one-byte keys alone by counting (histogram, then each
# digit's key repeated); all-digits histogram variants (tools/experiments/session9_sort_parts.cu).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session9-round2.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== memcheck one-byte keys ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u8*:*CudaSort_i8*' 2>&1 | tail -n 2
echo "=== sweeps ($(date -u +%H:%M:%S))"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
timeout 60 $S sweep sort --type u32 --min-log 10 --max-log 21 $X --out $OUT/s9r2-u32 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
timeout 60 $S sweep sort --type u64 --min-log 10 --max-log 16 $X --out $OUT/s9r2-u64 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
timeout 60 $S sweep sort --type u8 --min-log 10 --max-log 28 $X --out $OUT/s9r2-u8 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
timeout 60 $S sweep sort --type i8 --min-log 10 --max-log 28 $X --out $OUT/s9r2-i8 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
for t in u8 i8 u16 u32 f32 f64; do echo "-- $t"; $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
for t in f32 i8; do echo "-- $t pairs"; $S bench sort -n 2^28 --type $t --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
$S bench sort -n 2^28 --type u8 --descending --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "=== sort parts ($(date -u +%H:%M:%S))"
timeout 120 $B/session9_sort_parts 7
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
