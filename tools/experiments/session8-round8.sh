#!/usr/bin/env bash
# Session 8, GPU round 8: 16-byte items through the blocked scan tile (the new SixteenByteItems
# test, at default thresholds and with the blocked tile at every size, memcheck on it; user
# operators against CUB again), and the onesweep experiment: keys staged in shared memory as
# they are ranked, with more blocks per SM (tools/experiments/session8_onesweep.cu).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session8-round8.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_scan: 16-byte items, affine, every type"; timeout 150 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*SixteenByteItems*:*NonCommutativeAffine*:*EveryTypeAndOperator*:*InvalidArguments*' 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"
step "test_cuda_scan: 16-byte items, blocked tile at every size"; SCANKIT_LOOKBACK_BLOCKED_FROM=0 timeout 100 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*SixteenByteItems*' 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"
step "memcheck + racecheck: 16-byte items quick, blocked tile at every size"
for tool in memcheck racecheck; do SCANKIT_LOOKBACK_BLOCKED_FROM=0 SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*SixteenByteItems*' 2>&1 | tail -n 2; echo "[exit ${PIPESTATUS[0]}]"; done
step "user operators against CUB"; timeout 120 .devbundle/custom_ops
step "onesweep shapes"; timeout 200 .devbundle/onesweep
step end
} > "$L" 2>&1
tail -c 11000 "$L"
