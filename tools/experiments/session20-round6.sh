#!/usr/bin/env bash
# Session 20, round 6: one-byte keys with 4-byte values on 256 x 16 at 3 blocks per SM below
# 2^20 and 512 x 24 from there. Sweeps and bench rows against CUB, the sort tests (quick
# suite by default; the pairs tests with the large tiles at every size), compute-sanitizer on
# the small tile through the CLI, verify, and two CPU sort runs for the 10x target.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session20-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== int8 pairs by size ($(date -u +%H:%M:%S))"
timeout 150 $S sweep sort --type i8 --pairs --min-log 10 --max-log 28 --reps 7 --seed 8 --algo onesweep,cub --no-plot --out $OUT/s20-sweep-i8-pairs-final 2>&1 | grep -E "^2\^" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
echo "=== uint8 pairs by size ($(date -u +%H:%M:%S))"
timeout 100 $S sweep sort --type u8 --pairs --min-log 10 --max-log 26 --reps 7 --seed 9 --algo onesweep,cub --no-plot --out /tmp/s20-u8 2>&1 | grep -E "^2\^" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
echo "=== bench rows ($(date -u +%H:%M:%S))"
for a in "--type i8 -n 2^28 --seed 1" "--type i8 -n 2^28 --seed 2" "--type u8 -n 2^28 --seed 1" "--type i8 -n 2^30 --seed 1" "--type i8 -n 2^17 --seed 1"; do
  echo "-- $a"; timeout 120 $S bench sort $a --pairs --algo onesweep,cub --reps 7 2>&1 | grep -E "^(onesweep|cub) |rror"
done
echo "=== test_cuda_sort, quick suite ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 200 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3
echo "=== test_cuda_sort pairs, large tiles at every size ($(date -u +%H:%M:%S))"
SCANKIT_ONESWEEP_LARGE_FROM=0 timeout 200 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*PairsAreStable*:*InPlaceAndArgsort*:*HostContainers*:*BitRanges*' 2>&1 | tail -n 3
echo "=== compute-sanitizer, int8 pairs at 2^17 (256 x 16) ($(date -u +%H:%M:%S))"
for tool in memcheck racecheck synccheck; do
  echo -n "$tool: "
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 131071 --type i8 --pairs --algo onesweep --reps 1 --seed 2 2>&1 \
    | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^onesweep " | tr -s ' ' | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== verify sort ($(date -u +%H:%M:%S))"
timeout 150 $S verify sort --cases 200 --seed 2022 2>&1 | tail -n 1
echo "=== CPU sort, 2^27 uint32 ($(date -u +%H:%M:%S))"
for seed in 11 12; do
  timeout 100 $S bench sort -n 2^27 --type u32 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed $seed 2>&1 | grep -E "^cpu|rror"
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
