#!/usr/bin/env bash
# Session 20, round 8: one-byte keys with 4-byte values, the keys written by counting_fill_kernel
# after the one pass instead of scattered by it (SCANKIT_ONESWEEP_FILL_KEYS=1, the default,
# against 0). Bench rows both ways, the int8 pairs sweep, the pairs tests of the one-byte key
# types (now with in-place 4-byte values, and the large tiles' edges), compute-sanitizer on the
# fill path.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session20-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for a in "--type i8 -n 2^28" "--type u8 -n 2^28" "--type i8 -n 2^30" "--type i8 -n 2^24" "--type i8 -n 2^20" "--type i8 -n 2^16" "--type i8 -n 2^28 --descending"; do
  for fill in 1 0 1 0; do
    echo -n "$a, fill $fill: "
    SCANKIT_ONESWEEP_FILL_KEYS=$fill timeout 120 $S bench sort $a --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^(onesweep|cub) |rror" | tr -s ' ' | cut -d' ' -f1,2,6 | tr '\n' ' '; echo
  done
done
echo "=== int8 pairs by size, fill ($(date -u +%H:%M:%S))"
timeout 150 $S sweep sort --type i8 --pairs --min-log 10 --max-log 28 --reps 7 --seed 10 --algo onesweep,cub --no-plot --out $OUT/s20-sweep-i8-pairs-fill 2>&1 | grep -E "^2\^" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
echo "=== test_cuda_sort, one-byte keys, full mode ($(date -u +%H:%M:%S))"
timeout 250 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*u8*:*i8*:*U8*:*I8*' 2>&1 | tail -n 3
echo "=== test_cuda_sort, pairs of every key type, large tiles at every size, quick ($(date -u +%H:%M:%S))"
SCANKIT_ONESWEEP_LARGE_FROM=0 SCANKIT_TEST_QUICK=1 timeout 150 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*PairsAreStable*' 2>&1 | tail -n 3
echo "=== test_cuda_sort, in place, every key type, quick ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 150 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*InPlaceAndArgsort*' 2>&1 | tail -n 3
echo "=== compute-sanitizer on the fill path ($(date -u +%H:%M:%S))"
for tool in memcheck racecheck synccheck; do
  echo -n "$tool, CLI int8 pairs 2^17: "
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 131071 --type i8 --pairs --descending --algo onesweep --reps 1 --seed 2 2>&1 \
    | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^onesweep " | tr -s ' ' | cut -d' ' -f1-3,7- | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo -n "memcheck, in-place tests (quick, u8 and i8): "
SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u8.InPlaceAndArgsort/onesweep:*CudaSort_i8.InPlaceAndArgsort/onesweep' 2>&1 | tail -n 3 | tr '\n' ' '; echo "[exit ${PIPESTATUS[0]}]"
echo "=== verify sort ($(date -u +%H:%M:%S))"
timeout 150 $S verify sort --cases 200 --seed 2023 2>&1 | tail -n 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
