#!/usr/bin/env bash
# Session 18, round 5: the library with the session 18 shapes (warp-specialized 128 x 11 x 3 at
# three blocks per SM for 4- and 8-byte items; 8-byte blocked tiles of 8 vectors from 2^16 and
# the warp-specialized tile from 2^21 + 1). test_cuda_scan with each tile at every size,
# compute-sanitizer, verify, bench rows against CUB and the copy, size sweeps; then L2 hints and
# back-offs in session18_scan_ahead.cu.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s18.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit; X=$PWD/.devbundle/x/s18b
L=$OUT/session18-round5.log
row() { timeout 60 $S bench scan "$@" --reps 10 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled-lookback|cub|copy) " | tr -s ' ' | cut -d' ' -f1-7 | tr '\n' '|'; echo; }
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_scan decoupled_lookback, default ($(date -u +%H:%M:%S))"
timeout 150 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*' 2>&1 | tail -n 3
echo "=== test_cuda_scan, specialized at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 100 $B/test_cuda_scan --gtest_brief=1 \
  --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 3
echo "=== test_cuda_scan, blocked at every size, never specialized ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_LOOKBACK_SPECIALIZED_FROM=1000000000000 timeout 100 $B/test_cuda_scan --gtest_brief=1 \
  --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 3
for tool in memcheck synccheck racecheck; do
  echo "=== $tool, specialized at every size ($(date -u +%H:%M:%S))"
  SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 SCANKIT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 \
    $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*NonCommutativeAffine/decoupled_lookback:*Deterministic/decoupled_lookback:*EveryTypeAndOperator/decoupled_lookback' 2>&1 | tail -n 3
  echo "[exit ${PIPESTATUS[0]}]"
  echo "=== $tool, blocked at every size ($(date -u +%H:%M:%S))"
  SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_LOOKBACK_SPECIALIZED_FROM=1000000000000 SCANKIT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 \
    $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*NonCommutativeAffine/decoupled_lookback:*EveryTypeAndOperator/decoupled_lookback' 2>&1 | tail -n 3
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== verify ($(date -u +%H:%M:%S))"
timeout 60 $S verify scan --cases 100 --seed 1817 2>&1 | tail -n 1
echo "=== bench rows ($(date -u +%H:%M:%S))"
for t in i32 u32 f32; do for n in 2^28 2^30; do echo -n "$t $n: "; row -n $n --type $t; done; done
for k in 1 2; do for t in i64 u64 f64; do echo -n "$t 2^28: "; row -n 2^28 --type $t; done; done
for o in max min; do for n in 2^20 2^28; do echo -n "i32 $o $n: "; row -n $n --op $o; done; done
echo -n "i64 max 2^28: "; row -n 2^28 --type i64 --op max
echo -n "default bench (123,123,123): "; row
echo "=== sweeps ($(date -u +%H:%M:%S))"
cd $OUT
timeout 70 $S sweep scan --over size --type i64 --min-log 10 --max-log 29 --reps 7 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s18-sweep-i64 >/dev/null 2>&1; echo "[exit $?]"
timeout 50 $S sweep scan --over size --type f64 --min-log 14 --max-log 28 --reps 7 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s18-sweep-f64 >/dev/null 2>&1; echo "[exit $?]"
timeout 70 $S sweep scan --over size --type i32 --min-log 10 --max-log 30 --reps 7 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s18-sweep-i32 >/dev/null 2>&1; echo "[exit $?]"
rm -f $OUT/*.json
echo "=== L2 hints, back-offs ($(date -u +%H:%M:%S))"
timeout 60 $X/session18_scan_ahead i32 28 30 round5
timeout 30 $X/session18_scan_ahead i64 28 28 round5
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cut -c1-200 "$L" | head -60
