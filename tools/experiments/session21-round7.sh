#!/usr/bin/env bash
# Session 21, round 7: after the review. test_cuda_sort in full (two shards) with the new sizes
# (the small tiles' last size and the first past it) and 16-byte values in place and over bit
# ranges; compute-sanitizer on those tests for one- and two-byte keys; the tuning description.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session21-round7.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for shard in 0 1; do
  echo "=== test_cuda_sort in full, shard $shard of 2 ($(date -u +%H:%M:%S))"
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard timeout 280 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3
done
for tool in memcheck synccheck racecheck; do
  echo -n "$tool, uint8 / int16 in-place and bit-range tests, quick (onesweep): "
  SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 \
    --gtest_filter='*CudaSort_u8.InPlace*/onesweep:*CudaSort_u8.BitRanges/onesweep:*CudaSort_i16.InPlace*/onesweep' 2>&1 | tail -n 3 | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== tuning lines ($(date -u +%H:%M:%S))"
$S bench sort -n 1000 --type u8 --pairs --value-bytes 8 --algo onesweep --reps 1 2>&1 | grep -i "tile" | head -2
SCANKIT_ONESWEEP_LARGE_FROM=0 $S bench sort -n 1000 --type u8 --pairs --value-bytes 16 --algo onesweep --reps 1 2>&1 | grep -i "tile" | head -2
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
