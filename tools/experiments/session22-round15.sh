#!/usr/bin/env bash
# Session 22, round 15: the review's fixes on the GPU (a wider block only where its shared memory
# fits, the load window only with the tuned block, level 1 from the aggregates up to 160 tiles
# for items of up to 8 bytes and 128 beyond, the one-wave test's determinism check in the
# window): test_cuda_scan in full, the blocked tile at every size with a 3-tile window, memcheck
# on the one-wave test, and bench rows at the sizes the changes touch.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit; T=$B/test_cuda_scan
L=$OUT/session22-round15.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_scan in full ($(date -u +%H:%M:%S))"
timeout 200 $T --gtest_brief=1 2>&1 | tail -n 3
echo "=== blocked tile at every size, 3-tile load window ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_LOOKBACK_LOAD_WINDOW=3 timeout 150 $T --gtest_brief=1 \
  --gtest_filter='*EveryTypeAndOperator*:*NonCommutativeAffine*:*EightByteOneWave*:*SixteenByte*:*Deterministic*' 2>&1 | tail -n 2
echo -n "=== memcheck, one-wave test (quick): "
SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 $T --gtest_brief=1 \
  --gtest_filter='*EightByteOneWaveSizes/decoupled_lookback' 2>&1 | tail -n 2 | tr '\n' ' '; echo
echo "=== bench scan rows ($(date -u +%H:%M:%S))"
for a in "-n 2^20 --type i64" "-n 1246974 --type f64" "-n 1763488 --type i64" "-n 2^21 --type f64" "-n 3000 --type i64" "-n 6000 --type f32"; do
  echo "-- $a"; timeout 60 $S bench scan $a --reps 20 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled-lookback|cub|copy) |rror"
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
