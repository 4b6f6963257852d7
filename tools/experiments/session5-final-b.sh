#!/usr/bin/env bash
# Session 5, final code, second call: racecheck on subsets that launch every changed kernel,
# then the benchmarks (each row with CUB in the same process) and the CPU sort at 2^27.
set -uo pipefail
[ -d .devbundle/bin ] || tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/final-b.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
san() { local tool=$1 prog=$2 filter=$3 lim=$4; step "compute-sanitizer $tool $(basename $prog) quick ($filter)"
  SCANKIT_TEST_QUICK=1 timeout $lim compute-sanitizer --tool $tool --error-exitcode 1 $prog --gtest_brief=1 --gtest_filter="$filter" 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
san racecheck $B/test_cuda_sort '*CudaSort_u32.BitRanges/onesweep:*CudaSort_u8.BitRanges/onesweep:*CudaSort_u32.PairsAreStable/onesweep:*CudaSort_f64.InPlaceAndArgsort/onesweep' 110
san racecheck $B/test_cuda_compact '*Uint32AllPatterns*:*ThresholdPredicates*:*SelectIndicesWithIndexPredicate*' 80
for t in u32 i32 f32 u64 i64 f64 u16 u8; do step "sort $t"; $S bench sort -n 2^28 --type $t --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2; done
for vb in 4 8; do step "sort pairs u32, $vb-byte values"; $S bench sort -n 2^28 --type u32 --pairs --value-bytes $vb --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2; done
step "sort u32 sizes"; for n in 2^12 2^16 2^20 2^24 2^30; do $S bench sort -n $n --type u32 --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2; done
for n in 2^28 2^30; do for p in 0.01 0.5 0.99; do step "compact $n $p"
  $S bench compact -n $n --selectivity $p --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2; done; done
for op in partition unique; do step "compact $op"; $S bench compact -n 2^28 --op $op --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2; done
step "compact u64 50%"; $S bench compact -n 2^28 --type u64 --selectivity 0.5 --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2
if [ "${CPU_SORT:-0}" = 1 ]; then
  step "cpu sort u32 2^27"; $S bench sort -n 2^27 --type u32 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 3 --seed 1 2>&1 | tail -n 6
  step "cpu sort u64 2^27"; $S bench sort -n 2^27 --type u64 --algo cpu-radix,cpu-std-sort-par --reps 3 --seed 1 2>&1 | tail -n 4
  step "cpu sort pairs 2^27"; $S bench sort -n 2^27 --pairs --algo cpu-radix --reps 3 --seed 1 2>&1 | tail -n 2
fi
step end
} > "$L" 2>&1
cat "$L"
