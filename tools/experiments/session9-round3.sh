#!/usr/bin/env bash
# Session 9, GPU round 3: float keys held as sortable bits in onesweep's early tile (512 x 22 at
# 2 blocks per SM; doubles 512 x 16), sortable bits in the single-block sort (tiles with values
# up to 8 items). Every CUDA test program in full (the sort as two shards), sanitizers on the
# sort's quick suite, and the float sorts against CUB.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session9-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 420 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
(for t in scan compact histogram; do timeout 300 $B/test_cuda_$t --gtest_brief=1 > /tmp/$t.txt 2>&1; echo "[$t exit $?]" >> /tmp/$t.txt; done) &
wait
for i in 0 1; do echo "=== test_cuda_sort shard $i"; tail -n 4 /tmp/shard$i.txt; done
for t in scan compact histogram; do echo "=== test_cuda_$t"; tail -n 4 /tmp/$t.txt; done
echo "=== sanitizers ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_f32*:*CudaSort_f64*:*CudaSort_u16*' 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_f32.BitRanges*:*CudaSort_u64.PairsStable*' 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool synccheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_f32*' 2>&1 | tail -n 2
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
for t in f32 f64 u32 u64; do echo "-- $t"; $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
for t in f32 u32; do echo "-- $t pairs"; $S bench sort -n 2^28 --type $t --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
echo "=== sweeps ($(date -u +%H:%M:%S))"
X="--algo onesweep,cub --reps 7 --seed 1 --no-plot"
for t in f32 f64; do echo "-- $t"; timeout 90 $S sweep sort --type $t --min-log 10 --max-log 27 $X --out $OUT/s9r3-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
