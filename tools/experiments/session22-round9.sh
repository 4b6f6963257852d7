#!/usr/bin/env bash
# Session 22, round 9: round 8's one failure in test_cuda_compact (TileSizes/scan_scatter: a count
# one short at n = 11264, uint32, in-place exclusive scan of 0/1 positions with the look-back
# scan's striped tile). Replays its seed, then the test with fresh seeds (repeat), with the
# blocked tile at every size, and under memcheck and racecheck.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; T=$B/test_cuda_compact
L=$OUT/session22-round9.log
F='*TileSizes/scan_scatter'
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 1 2 3; do
  echo "=== replay $i ($(date -u +%H:%M:%S))"
  SCANKIT_TEST_SEED=2309293265474996342 timeout 60 $T --gtest_brief=1 --gtest_filter="$F" 2>&1 | grep -E "Failure|count|PASSED|FAILED" | head -5
done
echo "=== fresh seeds, 15 repeats ($(date -u +%H:%M:%S))"
timeout 150 $T --gtest_brief=1 --gtest_filter="$F" --gtest_repeat=15 2>&1 | grep -E "SEED|count|PASSED|FAILED" | sort | uniq -c | head -20
echo "=== replay with the blocked tile at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_TEST_SEED=2309293265474996342 timeout 60 $T --gtest_brief=1 --gtest_filter="$F" 2>&1 | grep -E "count|PASSED|FAILED" | head -5
echo "=== scan tests, int32 stress and every type, 3 repeats ($(date -u +%H:%M:%S))"
timeout 200 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*StressRandomSizes/decoupled_lookback:*EveryTypeAndOperator/decoupled_lookback:*EightByte*' --gtest_repeat=3 2>&1 | grep -E "PASSED|FAILED|Failure" | sort | uniq -c
for tool in memcheck racecheck; do
  echo -n "=== $tool, $F quick: "
  SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 $T --gtest_brief=1 --gtest_filter="$F" 2>&1 | tail -n 2 | tr '\n' ' '
  echo
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
