#!/usr/bin/env bash
# Session 10, round 7: the state to report. Quick CUDA tests (sort in two shards, scan,
# compaction), memcheck/racecheck/synccheck on sort subsets, onesweep against CUB at 2^28 for
# every key type and pairs, 2^30, sweeps 2^10-2^26; the CPU sort at 2^27 twice.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session10-round7.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
(for t in scan compact; do SCANKIT_TEST_QUICK=1 timeout 150 $B/test_cuda_$t --gtest_brief=1 > /tmp/$t.txt 2>&1; echo "[$t exit $?]" >> /tmp/$t.txt; done) &
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 3 /tmp/shard$i.txt; done
for t in scan compact; do echo "=== test_cuda_$t quick"; tail -n 3 /tmp/$t.txt; done
echo "=== sanitizers ($(date -u +%H:%M:%S))"
for tool in memcheck synccheck; do echo "-- $tool"; SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32*:*CudaSort_f32*:*CudaSort_u8*:*CudaSort_i64*' 2>&1 | tail -n 2; done
echo "-- racecheck"; SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u16*:*CudaSort_f64*' 2>&1 | tail -n 2
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
for t in u32 i32 f32 u64 i64 f64 u16 i16 u8 i8; do echo "-- $t"; $S bench sort -n 2^28 --type $t --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
for vb in 4 8; do echo "-- u32 pairs, $vb-byte values"; $S bench sort -n 2^28 --type u32 --pairs --value-bytes $vb --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u64 2^27 pairs"; $S bench sort -n 2^27 --type u64 --pairs --value-bytes 4 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "-- u32 2^30"; $S bench sort -n 2^30 --type u32 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "-- u64 2^29"; $S bench sort -n 2^29 --type u64 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
for t in u32 f32 u64 f64; do echo "-- sweep $t"; timeout 90 $S sweep sort --type $t --min-log 10 --max-log 26 $X --out /tmp/so-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
for i in 1 2; do echo "=== CPU bench 2^27 ($(date -u +%H:%M:%S))"
timeout 200 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $i 2>&1 | tail -n 7; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
