#!/usr/bin/env bash
# Session 9, GPU round 5: single-block sort with a 1-item tile (n <= 1024); onesweep shapes for
# 8-byte keys with 4-byte values (tools/experiments/session8_onesweep.cu, round s9); racecheck
# on the scan and compaction quick subsets (their kernels are now programmatic dependents);
# scankit verify for sort, scan and compact.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session9-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== sort quick tests ($(date -u +%H:%M:%S))"
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do tail -n 3 /tmp/shard$i.txt; done
echo "=== sort sweeps: n, onesweep ms, CUB ms, vs CUB ($(date -u +%H:%M:%S))"
X="--algo onesweep,cub --reps 11 --seed 1 --no-plot"
for t in u32 u64 f64 u16; do echo "-- $t"; timeout 60 $S sweep sort --type $t --min-log 10 --max-log 14 $X --out /tmp/sort-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
for t in u32 u64; do echo "-- $t pairs"; timeout 60 $S sweep sort --type $t --pairs --min-log 10 --max-log 14 $X --out /tmp/sortp-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "=== onesweep shapes, 8-byte keys + 4-byte values ($(date -u +%H:%M:%S))"
timeout 120 $B/session8_onesweep s9
echo "=== racecheck ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*NonCommutativeAffine*:*ZeroLength*' 2>&1 | tail -n 3
SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u64.BitRanges*:*CudaSort_u8.PairsStable*' 2>&1 | tail -n 3
echo "=== verify ($(date -u +%H:%M:%S))"
for p in sort scan compact; do timeout 120 $S verify $p 2>&1 | tail -n 2; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
