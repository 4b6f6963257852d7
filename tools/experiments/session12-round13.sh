#!/usr/bin/env bash
# Session 12, round 13: fewer integer instructions per key in onesweep (the digit as a shift
# and one and-xor; per-digit output base addresses; no bounds test in full tiles). Quick
# test_cuda_sort, verify sort, racecheck/synccheck through the CLI, onesweep against CUB at
# 2^28 for every key type and the pair shapes, the u32 sweep, and one pass under Nsight Compute
# (instructions and pipe use) to compare with round 11/12.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round13.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
R="--algo onesweep,cub --reps 7 --seed 1"
for t in u32 i32 f32 u64 i64 f64 u16 i8; do echo "-- $t"; $S bench sort -n 2^28 --type $t $R 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u32 descending"; $S bench sort -n 2^28 --type u32 --descending $R 2>&1 | grep -E "^onesweep|^cub"
for t in u32 f32 i8; do echo "-- $t pairs, 4-byte values"; $S bench sort -n 2^28 --type $t --pairs --value-bytes 4 $R 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u32 pairs, 8-byte values"; $S bench sort -n 2^28 --type u32 --pairs --value-bytes 8 $R 2>&1 | grep -E "^onesweep|^cub"
for vb in 4 8; do echo "-- u64 pairs, $vb-byte values, 2^27"; $S bench sort -n 2^27 --type u64 --pairs --value-bytes $vb $R 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u32 2^30"; $S bench sort -n 2^30 --type u32 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "=== ncu one pass u32 2^26 ($(date -u +%H:%M:%S))"
timeout 100 ncu --clock-control none --section ComputeWorkloadAnalysis --section InstructionStats --section SpeedOfLight -k regex:onesweep_kernel --launch-skip 5 --launch-count 1 $S bench sort -n 2^26 --reps 1 --algo onesweep --no-cub --seed 1 2>&1 | grep -E "Duration|Executed Instructions  |Issue Slots Busy|ALU is|SM Busy"
echo "=== tests ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 200 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3
timeout 150 $S verify sort --cases 200 --seed 12 2>&1 | tail -n 2
echo "=== sanitizers ($(date -u +%H:%M:%S))"
echo "-- memcheck"; SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32*:*CudaSort_i8*' 2>&1 | tail -n 2
for tool in racecheck synccheck; do
  for a in "--type u32" "--type f32 --pairs" "--type u32 --pairs --value-bytes 8" "--type i16 --descending" "--type u64 --pairs --value-bytes 4"; do
    echo "-- $tool $a"; timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 2^20 $a --algo onesweep --no-cub --reps 1 --seed 3 2>&1 | grep -E "^onesweep|ERROR SUMMARY|RACECHECK SUMMARY|hazard" | head -n 3
  done
done
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
echo "-- sweep u32 ($(date -u +%H:%M:%S))"; timeout 90 $S sweep sort --type u32 --min-log 10 --max-log 26 $X --out /tmp/so-u32 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "-- sweep u32 pairs"; timeout 90 $S sweep sort --type u32 --pairs --min-log 10 --max-log 26 $X --out /tmp/so-u32p 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
