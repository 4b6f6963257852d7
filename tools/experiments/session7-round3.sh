#!/usr/bin/env bash
# Session 7, GPU round 3: compute-sanitizer on the changed kernels (memcheck and synccheck on
# the quick suites of compaction, sort and scan; racecheck on subsets that launch them), and
# `scankit verify` for the three primitives.
set -uo pipefail
[ -d .devbundle/bin ] || tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round3.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
san() { local tool=$1 prog=$2 filter=$3 lim=$4; step "compute-sanitizer $tool $(basename $prog) quick ($filter)"
  SCANKIT_TEST_QUICK=1 timeout $lim compute-sanitizer --tool $tool --error-exitcode 1 $prog --gtest_brief=1 --gtest_filter="$filter" 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"; }
F='*onesweep*:CudaSortKeys.*:CudaSortArgs.*:CudaSortOrder.*:CudaSortLarge.*'
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
san memcheck $B/test_cuda_compact '*' 60
san synccheck $B/test_cuda_compact '*' 60
san racecheck $B/test_cuda_compact '*Uint32AllPatterns*:*ThresholdPredicates*:*SelectIndicesWithIndexPredicate*' 120
san memcheck $B/test_cuda_sort "$F" 80
san synccheck $B/test_cuda_sort "$F" 70
san racecheck $B/test_cuda_sort '*CudaSort_u32.BitRanges/onesweep:*CudaSort_u8.BitRanges/onesweep:*CudaSort_u32.PairsAreStable/onesweep' 110
san memcheck $B/test_cuda_scan '*' 60
san racecheck $B/test_cuda_scan '*NonCommutativeAffine*:*ZeroLength*' 60
for p in scan compact sort; do step "verify $p"; timeout 60 $S verify $p --cases 100 2>&1 | tail -n 2; done
step end
} > "$L" 2>&1
cat "$L"
