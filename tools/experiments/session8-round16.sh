#!/usr/bin/env bash
# Session 8, GPU round 16 (final code: the block scan of one value per thread shared by the
# raking tile scan and the blocked look-back tile; compaction on the scan's look_back()):
# test_cuda_scan and test_cuda_compact in full, memcheck on both quick suites, racecheck on a
# subset of each, verify scan and compact, and a benchmark of each against CUB.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session8-round16.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
san() { local tool=$1 prog=$2 filter=$3 lim=$4; step "compute-sanitizer $tool $(basename $prog) quick ($filter)"
  SCANKIT_TEST_QUICK=1 timeout $lim compute-sanitizer --tool $tool --error-exitcode 1 $prog --gtest_brief=1 --gtest_filter="$filter" 2>&1 | tail -n 2; echo "[exit ${PIPESTATUS[0]}]"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_scan full"; timeout 150 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"
step "test_cuda_compact full"; timeout 150 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"
san memcheck $B/test_cuda_compact '*' 90
san memcheck $B/test_cuda_scan '*EveryTypeAndOperator*:*NonCommutativeAffine*:*SixteenByteItems*' 90
san racecheck $B/test_cuda_compact '*Uint32AllPatterns*:*MisalignedPointers*' 90
step "verify scan"; timeout 60 $S verify scan 2>&1 | tail -n 1
step "verify compact"; timeout 60 $S verify compact --cases 100 2>&1 | tail -n 1
step "bench scan i32 2^28"; timeout 60 $S bench scan -n 2^28 --reps 10 --algo decoupled-lookback --compare cub,copy --device-only 2>&1 | grep -E "^decoupled|^cub"
step "bench compact 2^28 p=0.5"; timeout 60 $S bench compact -n 2^28 --selectivity 0.5 --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | grep -E "single-pass|^cub"
step end
} > "$L" 2>&1
tail -c 5000 "$L"
