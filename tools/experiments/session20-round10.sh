#!/usr/bin/env bash
# Session 20, round 10: int8 keys with values held raw in onesweep (as the other integer keys)
# instead of as sortable bits. Bench rows against CUB, the int8 tests, memcheck.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session20-round10.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for a in "--type i8 -n 2^28 --seed 1" "--type i8 -n 2^28 --seed 2" "--type i8 -n 2^28 --seed 3 --descending" "--type u8 -n 2^28 --seed 1" "--type i8 -n 2^30 --seed 1" "--type i8 -n 2^24 --seed 1" "--type i8 -n 2^20 --seed 1" "--type i8 -n 2^16 --seed 1"; do
  echo -n "$a: "; timeout 120 $S bench sort $a --pairs --algo onesweep,cub --reps 7 2>&1 | grep -E "^(onesweep|cub) |rror" | tr -s ' ' | cut -d' ' -f1,2,6 | tr '\n' ' '; echo
done
echo "=== int8 pairs by size ($(date -u +%H:%M:%S))"
timeout 150 $S sweep sort --type i8 --pairs --min-log 10 --max-log 28 --reps 7 --seed 11 --algo onesweep,cub --no-plot --out $OUT/s20-sweep-i8-pairs-raw 2>&1 | grep -E "^2\^" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
echo "=== test_cuda_sort, int8, full mode ($(date -u +%H:%M:%S))"
timeout 200 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*i8*:*I8*' 2>&1 | tail -n 3
echo "=== the int8 pairs tests, quick, large tiles at every size ($(date -u +%H:%M:%S))"
SCANKIT_ONESWEEP_LARGE_FROM=0 SCANKIT_TEST_QUICK=1 timeout 100 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_i8.*' 2>&1 | tail -n 3
for tool in memcheck synccheck; do
  echo -n "$tool, int8 pairs quick tests (onesweep): "
  SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 \
    --gtest_filter='*CudaSort_i8.PairsAreStable/onesweep:*CudaSort_i8.BitRanges/onesweep' 2>&1 | tail -n 3 | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
for from in 1000000000000 0; do
  echo -n "racecheck, CLI int8 pairs 2^17, large tile from $from: "
  SCANKIT_ONESWEEP_LARGE_FROM=$from timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $S bench sort -n 131071 --type i8 --pairs --descending \
    --algo onesweep --reps 1 --seed 2 2>&1 | grep -E "RACECHECK SUMMARY|^onesweep " | tr -s ' ' | cut -d' ' -f1-3,7- | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== verify sort ($(date -u +%H:%M:%S))"
timeout 150 $S verify sort --cases 200 --seed 2024 2>&1 | tail -n 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
