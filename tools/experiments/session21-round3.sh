#!/usr/bin/env bash
# Session 21, round 3: 1- and 2-byte keys with 8- and 16-byte values on their new tiles
# (16-byte values: 512 x 16 from 2^19; 8-byte values: 512 x 28 from 2^22; one-byte keys with
# 8-byte values: 256 x 8 at four blocks per SM below 3 x 2^17). Sweeps against CUB, bench rows,
# the narrow-key tests (full; quick with the large tiles at every size), compute-sanitizer on
# the new shapes, verify; and the CPU sort (harness: session 20's code and the new code; CLI).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session21-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== pairs against CUB by size ($(date -u +%H:%M:%S))"
for kv in "u8 8" "i8 8" "u8 16" "i8 16" "u16 8" "i16 8" "u16 16" "i16 16"; do
  set -- $kv
  echo "-- $1 keys + $2-byte values ($(date -u +%H:%M:%S))"
  timeout 150 $S sweep sort --type $1 --pairs --value-bytes $2 --min-log 10 --max-log 28 --reps 5 --seed 4 --algo onesweep,cub --no-plot --out /tmp/s21-$1-$2 2>&1 | grep -E "^2\^|rror" | grep -v " cub " | tr -s ' ' | cut -d' ' -f1,3,5 | tr '\n' '|'; echo
done
echo "=== bench rows ($(date -u +%H:%M:%S))"
for a in "--type u8 -n 2^28 --value-bytes 8" "--type i8 -n 2^30 --value-bytes 8" "--type u16 -n 2^28 --value-bytes 16" "--type i16 -n 2^29 --value-bytes 16" "--type u8 -n 2^18 --value-bytes 8" "--type i8 -n 2^16 --value-bytes 8 --descending"; do
  echo -n "$a: "; timeout 120 $S bench sort $a --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^(onesweep|cub) |tile|rror" | tr -s ' ' | cut -d' ' -f1,2,6,7 | tr '\n' ' '; echo
done
echo "=== test_cuda_sort, 1- and 2-byte keys, full mode ($(date -u +%H:%M:%S))"
timeout 280 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u8.*:*CudaSort_i8.*:*CudaSort_u16.*:*CudaSort_i16.*' 2>&1 | tail -n 3
echo "=== the same pairs tests, quick, large tiles at every size ($(date -u +%H:%M:%S))"
SCANKIT_ONESWEEP_LARGE_FROM=0 SCANKIT_TEST_QUICK=1 timeout 100 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u8.Pairs*:*CudaSort_i8.Pairs*:*CudaSort_u16.Pairs*:*CudaSort_i16.Pairs*' 2>&1 | tail -n 3
for tool in memcheck synccheck; do
  for env in "SCANKIT_ONESWEEP_LARGE_FROM=0" "SCANKIT_ONESWEEP_LARGE_FROM=1000000000000"; do
    echo -n "$tool, $env, int8 and uint16 pairs quick tests (onesweep): "
    env $env SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 \
      --gtest_filter='*CudaSort_i8.PairsAreStable/onesweep:*CudaSort_u16.PairsAreStable/onesweep' 2>&1 | tail -n 3 | tr '\n' ' '
    echo "[exit ${PIPESTATUS[0]}]"
  done
done
for a in "-n 100003 --type i8 --value-bytes 8" "-n 4194305 --type u8 --value-bytes 8" "-n 524289 --type u16 --value-bytes 16" "-n 524289 --type i8 --value-bytes 16"; do
  echo -n "racecheck, CLI $a: "
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 $S bench sort $a --pairs --descending \
    --algo onesweep --reps 1 --seed 2 2>&1 | grep -E "RACECHECK SUMMARY|^onesweep " | tr -s ' ' | cut -d' ' -f1-3,7- | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== verify sort ($(date -u +%H:%M:%S))"
timeout 150 $S verify sort --cases 200 --seed 2121 2>&1 | tail -n 1
echo "=== CPU sort, 2^27 uint32: harness base / new, twice; CLI twice ($(date -u +%H:%M:%S))"
for i in 1 2; do
  echo -n "base: "; timeout 60 $B/session21_cpu_sort_base 27 9
  echo -n "new:  "; timeout 60 $B/session21_cpu_sort_new 27 9
done
for seed in 31 32; do
  timeout 100 $S bench sort -n 2^27 --type u32 --algo cpu-radix,cpu-std-sort-par --reps 5 --seed $seed 2>&1 | grep -E "^cpu|rror"
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
