#!/usr/bin/env bash
# Session 20, round 4: the library with 16-byte values on one-block-per-SM tiles (512 x 16 for
# 4-byte keys, 384 x 16 for 8-byte keys) and one-byte keys with 4-byte values at 512 x 24.
# Where the 16-byte tiles start (always against never, by size), the int8 pairs sweep, bench
# rows, the sort tests (full, and the pairs tests with the large tiles at every size),
# compute-sanitizer on the new shapes through the CLI, and verify.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session20-round4.log
NEVER=1000000000000
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in u32 u64; do for from in 0 $NEVER; do
  echo "=== $t + 16-byte values, large tile from $from ($(date -u +%H:%M:%S))"
  SCANKIT_ONESWEEP_LARGE_FROM=$from timeout 100 $S sweep sort --type $t --pairs --value-bytes 16 --min-log 10 --max-log 24 \
    --reps 9 --seed 5 --algo onesweep,cub --no-plot --out /tmp/s20-thr-$t-$from 2>&1 | grep -E "^2\^" | grep -v " cub "
done; done
echo "=== int8 pairs by size ($(date -u +%H:%M:%S))"
timeout 150 $S sweep sort --type i8 --pairs --min-log 10 --max-log 28 --reps 7 --seed 5 --algo onesweep,cub --no-plot --out $OUT/s20-sweep-i8-pairs 2>&1 | grep -E "^2\^" | grep -v " cub "
echo "=== bench rows ($(date -u +%H:%M:%S))"
for a in "--type i8" "--type u8" "--type u32 --value-bytes 16" "--type f32 --value-bytes 16" "--type u64 --value-bytes 16" "--type f64 --value-bytes 16"; do
  echo "-- $a, 2^28"; timeout 120 $S bench sort -n 2^28 $a --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^(onesweep|cub) |rror"
done
echo "=== test_cuda_sort, full ($(date -u +%H:%M:%S))"
timeout 300 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3
echo "=== test_cuda_sort pairs, large tiles at every size ($(date -u +%H:%M:%S))"
SCANKIT_ONESWEEP_LARGE_FROM=0 timeout 200 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*PairsAreStable*:*InPlaceAndArgsort*:*HostContainers*:*BitRanges*' 2>&1 | tail -n 3
echo "=== compute-sanitizer through the CLI, 2^17 ($(date -u +%H:%M:%S))"
for tool in memcheck racecheck synccheck; do
  for a in "--type u32 --value-bytes 16" "--type f64 --value-bytes 16" "--type i8 --value-bytes 4"; do
    echo -n "$tool $a: "
    SCANKIT_ONESWEEP_LARGE_FROM=0 timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 131071 $a --pairs \
      --algo onesweep --reps 1 --seed 2 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^onesweep " | tr -s ' ' | tr '\n' ' '
    echo "[exit ${PIPESTATUS[0]}]"
  done
done
echo "=== verify sort ($(date -u +%H:%M:%S))"
timeout 150 $S verify sort --cases 200 --seed 2020 2>&1 | tail -n 1
SCANKIT_ONESWEEP_LARGE_FROM=0 timeout 150 $S verify sort --cases 200 --seed 2021 2>&1 | tail -n 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
