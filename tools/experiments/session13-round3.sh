#!/usr/bin/env bash
# Session 13, round 3: tests of the guessed tile. The CUDA suites in full with the guess on
# (the default), then scan/compact/sort with SCANKIT_GUESS_TILE=miss (every guess misses: the
# reload path) and the scan's blocked tile at every size; verify; compute-sanitizer.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session13-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 300 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
(for t in scan compact; do timeout 150 $B/test_cuda_$t --gtest_brief=1 > /tmp/$t.txt 2>&1; echo "[$t exit $?]" >> /tmp/$t.txt; done
 for t in scan compact; do SCANKIT_GUESS_TILE=miss timeout 150 $B/test_cuda_$t --gtest_brief=1 > /tmp/$t-miss.txt 2>&1; echo "[$t miss exit $?]" >> /tmp/$t-miss.txt; done) &
wait
for i in 0 1; do echo "=== test_cuda_sort shard $i"; tail -n 3 /tmp/shard$i.txt; done
for t in scan compact; do echo "=== test_cuda_$t"; tail -n 3 /tmp/$t.txt; echo "=== test_cuda_$t, every guess missing"; tail -n 3 /tmp/$t-miss.txt; done
echo "=== ($(date -u +%H:%M:%S)) scan, blocked tile at every size: guess on / every guess missing"
for g in on miss; do SCANKIT_GUESS_TILE=$g SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_TEST_QUICK=1 timeout 100 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 3; done
echo "=== ($(date -u +%H:%M:%S)) sort quick, every guess missing"
SCANKIT_GUESS_TILE=miss SCANKIT_TEST_QUICK=1 timeout 150 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3
echo "=== verify ($(date -u +%H:%M:%S))"
timeout 100 $S verify scan --seed 1313 2>&1 | tail -n 1
timeout 60 $S verify compact --cases 100 --seed 1313 2>&1 | tail -n 1
timeout 100 $S verify sort --cases 150 --seed 1313 2>&1 | tail -n 1
echo "=== sanitizers ($(date -u +%H:%M:%S))"
for g in on miss; do
  for tool in memcheck racecheck synccheck; do
    echo "-- $tool guess $g"
    SCANKIT_GUESS_TILE=$g timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench scan -n 2^22 --type i64 --algo decoupled-lookback --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^decoupled|ERROR SUMMARY|RACECHECK SUMMARY" | head -n 2
    SCANKIT_GUESS_TILE=$g timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench compact -n 2^22 --selectivity 0.5 --algo single-pass --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY|RACECHECK SUMMARY" | head -n 2
    SCANKIT_GUESS_TILE=$g timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 2^20 --type u32 --pairs --algo onesweep --no-cub --reps 1 --seed 3 2>&1 | grep -E "^onesweep|ERROR SUMMARY|RACECHECK SUMMARY" | head -n 2
  done
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
