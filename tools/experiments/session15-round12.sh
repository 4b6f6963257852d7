#!/usr/bin/env bash
# Session 15, round 12: the final warp-specialized tile (int32 256 x 9 x 3 from 2^23, int64
# 256 x 13 x 2 from 2^21). Bench rows against CUB and the copy (one process each), size
# sweeps, test_cuda_scan with the tile at every size and its large-size tests, compute-sanitizer.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session15-round12.log
row() { timeout 60 $S bench scan "$@" --reps 10 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled-lookback|cub|copy) " | tr -s ' ' | cut -d' ' -f1-7 | tr '\n' '|'; echo; }
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in i32 u32 f32; do for n in 2^28 2^30; do echo -n "$t $n: "; row -n $n --type $t; done; done
for k in 1 2; do for t in i64 u64 f64; do echo -n "$t 2^28: "; row -n 2^28 --type $t; done; done
for o in max min; do for n in 2^20 2^28; do echo -n "i32 $o $n: "; row -n $n --op $o; done; done
echo -n "i64 max 2^28: "; row -n 2^28 --type i64 --op max
echo -n "default bench (123,123,123): "; row
echo "=== sweeps ($(date -u +%H:%M:%S))"
timeout 100 $S sweep scan --over size --type i64 --min-log 16 --max-log 30 --reps 7 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s15-final-sweep-i64 >/dev/null 2>&1; echo "[exit $?]"
timeout 100 $S sweep scan --over size --type i32 --min-log 22 --max-log 30 --reps 7 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s15-final-sweep-i32 >/dev/null 2>&1; echo "[exit $?]"
echo "=== test_cuda_scan, specialized at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 150 $B/test_cuda_scan --gtest_brief=1 \
  --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 3
echo "=== test_cuda_scan decoupled_lookback, default ($(date -u +%H:%M:%S))"
timeout 150 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*' 2>&1 | tail -n 3
for tool in memcheck synccheck racecheck; do
  echo "=== $tool, specialized at every size ($(date -u +%H:%M:%S))"
  SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 \
    $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*NonCommutativeAffine/decoupled_lookback:*Deterministic/decoupled_lookback:*EveryTypeAndOperator/decoupled_lookback' 2>&1 | tail -n 3
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== verify ($(date -u +%H:%M:%S))"
timeout 60 $S verify scan --cases 100 --seed 1517 2>&1 | tail -n 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L" | cut -c1-220
