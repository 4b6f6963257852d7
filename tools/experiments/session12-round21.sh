#!/usr/bin/env bash
# Session 12, round 21: after the review edits (one out_bases constant in onesweep_kernel, the
# 64-bit-offset path's value pointer hoisted again; CPU leaf's staged path folded into its pass
# loop). Quick test_cuda_sort, verify sort, racecheck/synccheck on the two scatter paths, bench
# rows against CUB, CPU bench once.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round21.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
SCANKIT_TEST_QUICK=1 timeout 200 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3
timeout 150 $S verify sort --cases 200 --seed 2121 2>&1 | tail -n 1
for tool in memcheck racecheck synccheck; do
  for a in "--type u32" "--type u32 --pairs --value-bytes 8"; do
    echo "-- $tool $a"; timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 2^20 $a --algo onesweep --no-cub --reps 1 --seed 3 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | head -n 2
  done
done
R="--algo onesweep,cub --reps 7 --seed 1"
echo "-- u32"; $S bench sort -n 2^28 --type u32 $R 2>&1 | grep -E "^onesweep|^cub"
echo "-- u32 pairs"; $S bench sort -n 2^28 --type u32 --pairs $R 2>&1 | grep -E "^onesweep|^cub"
echo "-- u32 + 8-byte values"; $S bench sort -n 2^28 --type u32 --pairs --value-bytes 8 $R 2>&1 | grep -E "^onesweep|^cub"
echo "-- CPU 2^27"; timeout 150 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par --reps 5 --seed 11 2>&1 | grep -E "^cpu|vs"
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
