#!/usr/bin/env bash
# Session 21, round 8: the final commit on the GPU. bench sort rows in full (ratio to CUB and %
# of the device-to-device copy) for the pair kinds changed this session, the 1- and 2-byte key
# pairs tests, memcheck and racecheck on the one-byte key pairs tests.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session21-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for a in "--type u8 --value-bytes 8" "--type i8 --value-bytes 8" "--type u16 --value-bytes 8" "--type i16 --value-bytes 8" \
         "--type u8 --value-bytes 16" "--type i8 --value-bytes 16" "--type u16 --value-bytes 16" "--type i16 --value-bytes 16"; do
  echo "-- 2^28 $a"; timeout 120 $S bench sort -n 2^28 $a --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^(algorithm|onesweep|cub) |rror"
done
echo "=== 1- and 2-byte key pairs tests, full ($(date -u +%H:%M:%S))"
timeout 200 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u8.Pairs*:*CudaSort_i8.Pairs*:*CudaSort_u16.Pairs*:*CudaSort_i16.Pairs*:CudaSortWorkspace.*' 2>&1 | tail -n 2
for tool in memcheck racecheck; do
  echo -n "$tool, uint8 / int8 pairs quick tests (onesweep): "
  SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 \
    --gtest_filter='*CudaSort_u8.PairsAreStable/onesweep:*CudaSort_i8.PairsAreStable/onesweep' 2>&1 | tail -n 2 | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
