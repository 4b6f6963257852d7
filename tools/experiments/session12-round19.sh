#!/usr/bin/env bash
# Session 12, round 19: 8-byte keys with 4-byte values at 384 x 18 (the final code). The sort
# suites of 8-byte keys in full, quick test_cuda_sort, verify sort, racecheck/synccheck on the
# shape, onesweep against CUB at 2^27/2^28 and the uint64-pairs sweep.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round19.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_sort 8-byte key suites in full"; timeout 200 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u64*:*CudaSort_i64*:*CudaSort_f64*' 2>&1 | tail -n 3
echo "=== test_cuda_sort quick"; SCANKIT_TEST_QUICK=1 timeout 200 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3
echo "=== verify ($(date -u +%H:%M:%S))"; timeout 150 $S verify sort --cases 200 --seed 1919 2>&1 | tail -n 1
for tool in memcheck racecheck synccheck; do
  for a in "--type u64 --pairs" "--type f64 --pairs --descending" "--type i64 --pairs"; do
    echo "-- $tool $a"; timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 2^20 $a --algo onesweep --no-cub --reps 1 --seed 3 2>&1 | grep -E "^onesweep|ERROR SUMMARY|RACECHECK SUMMARY" | head -n 3
  done
done
R="--algo onesweep,cub --reps 7 --seed 1"
for t in u64 f64; do echo "-- $t pairs 4-byte values 2^27"; $S bench sort -n 2^27 --type $t --pairs $R 2>&1 | grep -E "^onesweep|^cub"; done
echo "-- u64 pairs 4-byte values 2^28"; $S bench sort -n 2^28 --type u64 --pairs $R 2>&1 | grep -E "^onesweep|^cub"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
echo "-- sweep u64 pairs 4-byte values"; timeout 120 $S sweep sort --type u64 --pairs --min-log 10 --max-log 26 $X --out /tmp/so-u64p 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
