#!/usr/bin/env bash
# Session 18, round 9: the final code (level 1 from the aggregates up to 128 blocked tiles;
# partial tiles loaded and stored by whole vectors where they can be). test_cuda_scan and
# test_cuda_compact in full, the decoupled-lookback suite with each tile at every size,
# compute-sanitizer, verify, size sweeps, bench rows.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session18-round9.log
row() { timeout 60 $S bench scan "$@" --reps 10 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled-lookback|cub|copy) " | tr -s ' ' | cut -d' ' -f1-7 | tr '\n' '|'; echo; }
NEVER=1000000000000
DL='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*'
Q='*NonCommutativeAffine/*:*EveryTypeAndOperator/*:*Deterministic/*'
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_scan, full ($(date -u +%H:%M:%S))"
timeout 150 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 3
echo "=== test_cuda_compact, full ($(date -u +%H:%M:%S))"
timeout 150 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
echo "=== blocked at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_LOOKBACK_SPECIALIZED_FROM=$NEVER timeout 80 $B/test_cuda_scan --gtest_brief=1 --gtest_filter="$DL" 2>&1 | tail -n 2
echo "=== striped at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_BLOCKED_FROM=$NEVER SCANKIT_LOOKBACK_SPECIALIZED_FROM=$NEVER timeout 80 $B/test_cuda_scan --gtest_brief=1 --gtest_filter="$DL" 2>&1 | tail -n 2
echo "=== specialized at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 80 $B/test_cuda_scan --gtest_brief=1 --gtest_filter="$DL" 2>&1 | tail -n 2
echo "=== memcheck ($(date -u +%H:%M:%S))"
for mode in blocked striped; do
  if [ $mode = blocked ]; then BF=0; else BF=$NEVER; fi
  echo -n "memcheck $mode: "; SCANKIT_LOOKBACK_BLOCKED_FROM=$BF SCANKIT_LOOKBACK_SPECIALIZED_FROM=$NEVER SCANKIT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 \
    $B/test_cuda_scan --gtest_brief=1 --gtest_filter="$Q" 2>&1 | tail -n 3 | tr '\n' ' '; echo "[exit ${PIPESTATUS[0]}]"
done
echo -n "memcheck compact quick: "; SCANKIT_TEST_QUICK=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3 | tr '\n' ' '; echo "[exit ${PIPESTATUS[0]}]"
for tool in racecheck synccheck; do
  echo -n "$tool blocked: "; SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_LOOKBACK_SPECIALIZED_FROM=$NEVER SCANKIT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 \
    $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*NonCommutativeAffine/decoupled_lookback:*EveryTypeAndOperator/decoupled_lookback' 2>&1 | tail -n 3 | tr '\n' ' '; echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== verify ($(date -u +%H:%M:%S))"
timeout 60 $S verify scan --cases 100 --seed 1819 2>&1 | tail -n 1
echo "=== bench rows ($(date -u +%H:%M:%S))"
for a in "-n 2^28 --type i32" "-n 2^30 --type i32" "-n 2^28 --type f32" "-n 2^28 --type i64" "-n 2^28 --type f64" "-n 2^11 --type i32" "-n 2^19 --type i64" ""; do echo -n "scan $a: "; row $a; done
echo "=== sweeps ($(date -u +%H:%M:%S))"
cd $OUT
sw() { timeout 70 $S sweep scan --over size --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot "$@" >/dev/null 2>&1; echo "$* [exit $?]"; }
sw --type i32 --min-log 9 --max-log 17 --reps 41 --out $OUT/s18-final-sweep41-i32
sw --type i64 --min-log 10 --max-log 23 --reps 41 --out $OUT/s18-final2-sweep41-i64
sw --type f64 --min-log 10 --max-log 23 --reps 41 --out $OUT/s18-final2-sweep41-f64
sw --type i32 --min-log 10 --max-log 30 --reps 7 --out $OUT/s18-final-sweep-i32
rm -f $OUT/*.json
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cut -c1-230 "$L" | tail -n 45
