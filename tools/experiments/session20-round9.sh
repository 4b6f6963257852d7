#!/usr/bin/env bash
# Session 20, round 9: the final code (round 8's key fill removed; the sort tests' new cases:
# in-place 4-byte values, descending, and the large tiles' edges). The sort tests that changed
# or that cover the session's shapes, and bench rows for the one-byte keys.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session20-round9.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_sort, pairs and in place, every key type, full mode ($(date -u +%H:%M:%S))"
timeout 280 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*PairsAreStable/onesweep:*InPlaceAndArgsort*' 2>&1 | tail -n 3
echo "=== the same, quick, large tiles at every size ($(date -u +%H:%M:%S))"
SCANKIT_ONESWEEP_LARGE_FROM=0 SCANKIT_TEST_QUICK=1 timeout 150 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*PairsAreStable*:*InPlaceAndArgsort*' 2>&1 | tail -n 3
echo "=== bench rows ($(date -u +%H:%M:%S))"
for a in "--type i8 -n 2^28" "--type u8 -n 2^28" "--type i8 -n 2^16"; do
  echo -n "$a: "; timeout 120 $S bench sort $a --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^(onesweep|cub) |rror" | tr -s ' ' | cut -d' ' -f1,2,6 | tr '\n' ' '; echo
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
