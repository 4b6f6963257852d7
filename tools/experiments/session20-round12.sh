#!/usr/bin/env bash
# Session 20, round 12: two-byte keys with 4-byte values on 256 x 16 at 3 blocks per SM below
# 2^21 (384 x 28 from there). Sweeps and bench rows against CUB, the 16-bit key tests,
# compute-sanitizer, verify.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session20-round12.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in u16 i16; do
  echo "=== $t pairs by size ($(date -u +%H:%M:%S))"
  timeout 150 $S sweep sort --type $t --pairs --min-log 10 --max-log 28 --reps 7 --seed 12 --algo onesweep,cub --no-plot --out $OUT/s20-sweep-$t-pairs 2>&1 | grep -E "^2\^" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
done
for a in "--type u16 -n 2^28" "--type i16 -n 2^28" "--type u16 -n 2^14" "--type u16 -n 2^20"; do
  echo -n "$a: "; timeout 120 $S bench sort $a --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^(onesweep|cub) |rror" | tr -s ' ' | cut -d' ' -f1,2,6 | tr '\n' ' '; echo
done
echo "=== test_cuda_sort, 16-bit keys, full mode ($(date -u +%H:%M:%S))"
timeout 200 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*u16*:*i16*:*U16*:*I16*' 2>&1 | tail -n 3
echo "=== the 16-bit key tests, quick, large tiles at every size ($(date -u +%H:%M:%S))"
SCANKIT_ONESWEEP_LARGE_FROM=0 SCANKIT_TEST_QUICK=1 timeout 100 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u16.*:*CudaSort_i16.*' 2>&1 | tail -n 3
for tool in memcheck synccheck; do
  echo -n "$tool, 16-bit pairs quick tests (onesweep): "
  SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 \
    --gtest_filter='*CudaSort_u16.PairsAreStable/onesweep:*CudaSort_i16.BitRanges/onesweep' 2>&1 | tail -n 3 | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo -n "racecheck, CLI int16 pairs 2^17: "
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $S bench sort -n 131071 --type i16 --pairs --descending \
  --algo onesweep --reps 1 --seed 2 2>&1 | grep -E "RACECHECK SUMMARY|^onesweep " | tr -s ' ' | cut -d' ' -f1-3,7- | tr '\n' ' '
echo "[exit ${PIPESTATUS[0]}]"
echo "=== verify sort ($(date -u +%H:%M:%S))"
timeout 150 $S verify sort --cases 200 --seed 2025 2>&1 | tail -n 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
