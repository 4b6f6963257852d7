#!/usr/bin/env bash
# Session 8, GPU round 11: the onesweep tiles staged early in the library (512 x 22 for keys of
# 1-4 bytes, 512 x 16 for 8-byte keys, 384 x 28 for 4-byte keys with 4-byte values):
# test_cuda_sort in full, verify sort, compute-sanitizer memcheck / synccheck on the quick suite
# and racecheck on a subset, then the sort benchmarks against CUB (every key type, pairs).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session8-round11.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
san() { local tool=$1 prog=$2 filter=$3 lim=$4; step "compute-sanitizer $tool $(basename $prog) quick ($filter)"
  SCANKIT_TEST_QUICK=1 timeout $lim compute-sanitizer --tool $tool --error-exitcode 1 $prog --gtest_brief=1 --gtest_filter="$filter" 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_sort full"; timeout 290 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 4; echo "[exit ${PIPESTATUS[0]}]"
step "verify sort"; timeout 60 $S verify sort --cases 100 2>&1 | tail -n 1
san memcheck $B/test_cuda_sort '*onesweep*:*EveryPattern*' 100
san synccheck $B/test_cuda_sort '*onesweep*' 60
san racecheck $B/test_cuda_sort '*CudaSort_u32.BitRanges/onesweep:*CudaSort_u32.PairsAreStable/onesweep:*CudaSort_u8.BitRanges/onesweep' 110
step end
} > "$L" 2>&1
tail -c 6000 "$L"
