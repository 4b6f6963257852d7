#!/usr/bin/env bash
# Session 18, round 7: the library with the guess prefetch (8-byte striped and blocked tiles,
# launches of at most 256 tiles). Tests with each tile at every size, compute-sanitizer, verify,
# size sweeps of 8-byte scans at 41 runs per size, bench rows.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session18-round7.log
row() { timeout 60 $S bench scan "$@" --reps 10 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled-lookback|cub|copy) " | tr -s ' ' | cut -d' ' -f1-7 | tr '\n' '|'; echo; }
NEVER=1000000000000
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_scan decoupled_lookback, default ($(date -u +%H:%M:%S))"
timeout 120 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*' 2>&1 | tail -n 3
echo "=== blocked at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_LOOKBACK_SPECIALIZED_FROM=$NEVER timeout 100 $B/test_cuda_scan --gtest_brief=1 \
  --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 3
echo "=== striped at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_BLOCKED_FROM=$NEVER SCANKIT_LOOKBACK_SPECIALIZED_FROM=$NEVER timeout 100 $B/test_cuda_scan --gtest_brief=1 \
  --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 3
for tool in memcheck synccheck racecheck; do
  for mode in blocked striped; do
    echo "=== $tool, $mode at every size ($(date -u +%H:%M:%S))"
    if [ $mode = blocked ]; then BF=0; else BF=$NEVER; fi
    SCANKIT_LOOKBACK_BLOCKED_FROM=$BF SCANKIT_LOOKBACK_SPECIALIZED_FROM=$NEVER SCANKIT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 \
      $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*NonCommutativeAffine/decoupled_lookback:*EveryTypeAndOperator/decoupled_lookback' 2>&1 | tail -n 3
    echo "[exit ${PIPESTATUS[0]}]"
  done
done
echo "=== verify ($(date -u +%H:%M:%S))"
timeout 60 $S verify scan --cases 100 --seed 1818 2>&1 | tail -n 1
echo "=== bench rows ($(date -u +%H:%M:%S))"
for n in 2^14 2^16 2^18 2^19 2^20 2^28; do echo -n "i64 $n: "; row -n $n --type i64; done
echo -n "default bench (123,123,123): "; row
$S bench scan -n 2^20 --type i64 --algo decoupled-lookback --compare cub --device-only --reps 3 2>&1 | grep -i "tuning" | head -2
echo "=== sweeps, 41 runs ($(date -u +%H:%M:%S))"
cd $OUT
timeout 60 $S sweep scan --over size --type i64 --min-log 10 --max-log 23 --reps 41 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s18-final-sweep41-i64 >/dev/null 2>&1; echo "[exit $?]"
timeout 60 $S sweep scan --over size --type f64 --min-log 10 --max-log 23 --reps 41 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s18-final-sweep41-f64 >/dev/null 2>&1; echo "[exit $?]"
timeout 60 $S sweep scan --over size --type i64 --min-log 10 --max-log 29 --reps 7 --algo decoupled-lookback --compare cub,copy --device-only --seed 2 --no-plot --out $OUT/s18-final-sweep-i64 >/dev/null 2>&1; echo "[exit $?]"
rm -f $OUT/*.json
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cut -c1-220 "$L" | tail -n 40
