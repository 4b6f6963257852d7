#!/usr/bin/env bash
# Session 8, GPU round 5: the blocked look-back tile in the library. test_cuda_scan in full
# (default thresholds, then the blocked tile at every size), compute-sanitizer memcheck,
# synccheck and racecheck with the blocked tile at every size, verify scan, and the scan
# benchmarks (CUB, Thrust and the copy in the same process).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session8-round5.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
san() { local tool=$1 prog=$2 filter=$3 lim=$4; step "compute-sanitizer $tool $(basename $prog) quick, blocked tile at every size ($filter)"
  SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_TEST_QUICK=1 timeout $lim compute-sanitizer --tool $tool --error-exitcode 1 $prog --gtest_brief=1 --gtest_filter="$filter" 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_scan full"; timeout 150 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 4; echo "[exit ${PIPESTATUS[0]}]"
step "test_cuda_scan, blocked tile at every size"
SCANKIT_LOOKBACK_BLOCKED_FROM=0 timeout 120 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*EveryTypeAndOperator*:*NonCommutativeAffine*:*BlockSizes*:*StressRandomSizes*:*Deterministic*:*ZeroLength*:*HostContainers*' 2>&1 | tail -n 4; echo "[exit ${PIPESTATUS[0]}]"
san memcheck $B/test_cuda_scan '*EveryTypeAndOperator*:*NonCommutativeAffine*:*BlockSizes*:*InvalidArguments*' 100
san synccheck $B/test_cuda_scan '*NonCommutativeAffine*:*BlockSizes*' 60
san racecheck $B/test_cuda_scan '*NonCommutativeAffine*:*ZeroLength*' 180
step "verify scan"; timeout 60 $S verify scan 2>&1 | tail -n 2
step "bench scan (default)"; timeout 60 $S bench scan --reps 20 --json $OUT/bench.json 2>&1 | tail -n 25
step "tuning"; $S bench scan -n 2^20 --reps 1 --algo decoupled-lookback --compare none --device-only 2>&1 | grep -i "tile\|tuning" | head -8
step end
} > "$L" 2>&1
tail -c 11000 "$L"
