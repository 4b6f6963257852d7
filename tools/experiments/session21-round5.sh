#!/usr/bin/env bash
# Session 21, round 5: the final sort code (one-byte keys with 16-byte values on 256 x 4 at four
# blocks per SM below 2^17). test_cuda_sort in full (two shards), the 1-byte key pairs tests
# with the large tiles at every size, compute-sanitizer on the small tiles, verify.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session21-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for shard in 0 1; do
  echo "=== test_cuda_sort in full, shard $shard of 2 ($(date -u +%H:%M:%S))"
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard timeout 250 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3
done
echo "=== one-byte key pairs tests, quick, large tiles at every size ($(date -u +%H:%M:%S))"
SCANKIT_ONESWEEP_LARGE_FROM=0 SCANKIT_TEST_QUICK=1 timeout 100 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u8.Pairs*:*CudaSort_i8.Pairs*' 2>&1 | tail -n 3
for tool in memcheck synccheck; do
  echo -n "$tool, uint8 and int8 pairs quick tests (onesweep): "
  SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 \
    --gtest_filter='*CudaSort_u8.PairsAreStable/onesweep:*CudaSort_i8.PairsAreStable/onesweep' 2>&1 | tail -n 3 | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
for a in "-n 50001 --type i8 --value-bytes 16" "-n 100003 --type u8 --value-bytes 16"; do
  echo -n "racecheck, CLI $a: "
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $S bench sort $a --pairs --descending \
    --algo onesweep --reps 1 --seed 2 2>&1 | grep -E "RACECHECK SUMMARY|^onesweep " | tr -s ' ' | cut -d' ' -f1-3,7- | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== verify sort ($(date -u +%H:%M:%S))"
timeout 100 $S verify sort --cases 200 --seed 2151 2>&1 | tail -n 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
