#!/usr/bin/env bash
# Session 15, round 6: the warp-specialized look-back tile in the library. test_cuda_scan in
# full and with the tile at every size, compute-sanitizer on it, verify scan, and bench rows
# (scankit against CUB and the copy in one process) at 2^28 and 2^30.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session15-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== bench ($(date -u +%H:%M:%S))"
for t in i32 u32 f32; do for n in 2^28 2^30; do
  timeout 60 $S bench scan -n $n --type $t --reps 10 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled|cub|copy|device|  )" | head -8
done; done
for t in i64 u64 f64; do
  timeout 60 $S bench scan -n 2^28 --type $t --reps 10 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled|cub|copy)"
done
echo "=== test_cuda_scan ($(date -u +%H:%M:%S))"
timeout 200 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 12
echo "=== test_cuda_scan, specialized at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 150 $B/test_cuda_scan --gtest_brief=1 \
  --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 12
for tool in memcheck synccheck racecheck; do
  echo "=== $tool, specialized at every size ($(date -u +%H:%M:%S))"
  SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 SCANKIT_TEST_QUICK=1 timeout 90 compute-sanitizer --tool $tool --error-exitcode 1 \
    $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*NonCommutativeAffine*:*decoupled_lookback*Deterministic*' 2>&1 | tail -n 4
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== verify ($(date -u +%H:%M:%S))"
timeout 90 $S verify scan --cases 100 --seed 1515 2>&1 | tail -n 2
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L" | cut -c1-200
