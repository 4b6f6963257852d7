#!/usr/bin/env bash
# Session 5, final code, first call: the sort and compaction test suites in full (sort: every
# onesweep case plus the all-algorithm and 2^30 tests), memcheck and synccheck on the quick
# suites, and `scankit verify` for both.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/final-a.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
F='*onesweep*:CudaSortKeys.*:CudaSortArgs.*:CudaSortOrder.*:CudaSortLarge.*'
san() { local tool=$1 prog=$2 filter=$3 lim=$4; step "compute-sanitizer $tool $(basename $prog) quick ($filter)"
  SCANKIT_TEST_QUICK=1 timeout $lim compute-sanitizer --tool $tool --error-exitcode 1 $prog --gtest_brief=1 --gtest_filter="$filter" 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_sort full ($F)"; timeout 300 $B/test_cuda_sort --gtest_brief=1 --gtest_filter="$F" 2>&1 | tail -n 6; echo "[exit ${PIPESTATUS[0]}]"
step "test_cuda_compact full"; timeout 120 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 4; echo "[exit ${PIPESTATUS[0]}]"
san memcheck $B/test_cuda_sort "$F" 90
san synccheck $B/test_cuda_sort "$F" 70
san memcheck $B/test_cuda_compact '*' 90
san synccheck $B/test_cuda_compact '*' 70
for p in sort compact; do step "verify $p"; timeout 60 $S verify $p --cases 100 2>&1 | tail -n 3; done
step end
} > "$L" 2>&1
cat "$L"
