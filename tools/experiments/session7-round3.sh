#!/usr/bin/env bash
# Session 7, GPU round 3: A/B of compaction's items-only kernel against the generic one
# (SCANKIT_COMPACT_KERNEL=generic, same binary, alternating runs), then compute-sanitizer on
# the changed kernels (memcheck and synccheck on the quick suites of compaction, sort and scan;
# racecheck on subsets that launch them), and `scankit verify` for the three primitives.
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
C="$S bench compact -n 2^28 --algo single-pass --compare cub --reps 10 --seed 1 --device-only"
for args in "--selectivity 0.01" "--selectivity 0.5" "--selectivity 0.99" "--op unique" "--op select_flagged" "--op remove_if"; do
  for k in items-only generic; do step "A/B $args kernel=$k"; SCANKIT_COMPACT_KERNEL=$k $C $args 2>&1 | tail -n 2; done
done
san memcheck $B/test_cuda_compact '*' 60
san synccheck $B/test_cuda_compact '*' 60
san racecheck $B/test_cuda_compact '*Uint32AllPatterns*:*MisalignedPointers*' 100
san memcheck $B/test_cuda_sort "$F" 80
san synccheck $B/test_cuda_sort "$F" 70
san racecheck $B/test_cuda_sort '*CudaSort_u32.BitRanges/onesweep:*CudaSort_u32.PairsAreStable/onesweep' 80
san memcheck $B/test_cuda_scan '*NonCommutativeAffine*:*ZeroLength*:*EveryType*' 50
san racecheck $B/test_cuda_scan '*NonCommutativeAffine*:*ZeroLength*' 50
for p in scan compact sort; do step "verify $p"; timeout 60 $S verify $p --cases 100 2>&1 | tail -n 2; done
for t in i32 i64 f64 u16 u8; do step "sort $t"; $S bench sort -n 2^28 --type $t --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2; done
step "sort pairs u32, 8-byte values"; $S bench sort -n 2^28 --type u32 --pairs --value-bytes 8 --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2
step "sort u32 sizes"; for n in 2^12 2^16 2^20 2^24 2^30; do $S bench sort -n $n --type u32 --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2; done
step end
} > "$L" 2>&1
cat "$L"
