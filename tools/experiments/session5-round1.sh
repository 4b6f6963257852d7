#!/usr/bin/env bash
# Session 5, first GPU round: onesweep's new tile (count-then-rank, 384 threads) and the
# compaction kernel without spills. Tests first, then A/B benchmarks with CUB in each process.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round1.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_sort quick"; SCANKIT_TEST_QUICK=1 timeout 120 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 15
step "test_cuda_sort quick, u32 with 19 items"; SCANKIT_ONESWEEP_ITEMS=19 SCANKIT_TEST_QUICK=1 timeout 60 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*u32*' 2>&1 | tail -n 5
step "test_cuda_compact"; timeout 120 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 15
for t in u32 u64 i32 f32; do step "sort $t"; $S bench sort -n 2^28 --type $t --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 4; done
step "sort u32 19 items"; SCANKIT_ONESWEEP_ITEMS=19 $S bench sort -n 2^28 --type u32 --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 4
step "sort pairs u32"; $S bench sort -n 2^28 --type u32 --pairs --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 4
step "sort u32 2^24, 2^20"; for n in 2^24 2^20; do $S bench sort -n $n --type u32 --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 3; done
for p in 0.01 0.5 0.99; do step "compact $p"; $S bench compact -n 2^28 --selectivity $p --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 4; done
for op in partition unique; do step "compact $op"; $S bench compact -n 2^28 --op $op --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 4; done
step "compact u64 0.5"; $S bench compact -n 2^28 --type u64 --selectivity 0.5 --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 4
step "compute-sanitizer memcheck sort quick (u32 + pairs subset)"; SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*u32*:*u64*:*f32*' 2>&1 | tail -n 3
step end
} > "$L" 2>&1
cat "$L"
