#!/usr/bin/env bash
# Session 18, round 10: the final code (whole-vector partial tiles only in the one-launch path;
# reduce-then-scan's tile sums take vectors only where the workspace is aligned; the test tile
# sizes follow the warp-specialized shape). test_cuda_scan in full, the decoupled-lookback
# suite with the specialized tile at every size and with level 1 waited for, memcheck, and
# the int32 / int64 size sweeps at 41 runs per size.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session18-round10.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_scan, full ($(date -u +%H:%M:%S))"
timeout 150 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 3
echo "=== specialized at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 80 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 2
echo "=== blocked at every size, level 1 waited for ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_LOOKBACK_LEVEL1_FROM_AGGREGATES=0 timeout 80 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*EveryTypeAndOperator*:*NonCommutativeAffine*:*Deterministic*' 2>&1 | tail -n 2
echo -n "memcheck quick (every algorithm): "; SCANKIT_TEST_QUICK=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*EveryTypeAndOperator*:*NonCommutativeAffine*' 2>&1 | tail -n 3 | tr '\n' ' '; echo "[exit ${PIPESTATUS[0]}]"
echo "=== sweeps ($(date -u +%H:%M:%S))"
cd $OUT
sw() { timeout 60 $S sweep scan --over size --algo decoupled-lookback --compare cub,copy --device-only --seed 3 --no-plot "$@" >/dev/null 2>&1; echo "$* [exit $?]"; }
sw --type i32 --min-log 9 --max-log 24 --reps 41 --out $OUT/s18-r10-sweep41-i32
sw --type i64 --min-log 10 --max-log 24 --reps 41 --out $OUT/s18-r10-sweep41-i64
rm -f $OUT/*.json
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cut -c1-230 "$L" | tail -n 30
