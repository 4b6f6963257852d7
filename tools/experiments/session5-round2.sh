#!/usr/bin/env bash
# Session 5, second GPU round: onesweep shapes with a register budget (3 blocks of 384 for keys
# only), the pairs shape A/B, and the compaction look-back's back-off and first-poll delay.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round2.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_sort quick"; SCANKIT_TEST_QUICK=1 timeout 120 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 6
step "test_cuda_sort quick, u32 pairs at 384 x 12"; SCANKIT_ONESWEEP_ITEMS=12 SCANKIT_TEST_QUICK=1 timeout 60 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*u32*' 2>&1 | tail -n 3
step "test_cuda_compact quick"; SCANKIT_TEST_QUICK=1 timeout 120 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
for t in u32 i32 f32 u64 f64 u16 u8; do step "sort $t"; $S bench sort -n 2^28 --type $t --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 3; done
step "sort pairs u32 (384 x 16, 2 blocks)"; $S bench sort -n 2^28 --type u32 --pairs --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 3
step "sort pairs u32 (384 x 12, 3 blocks)"; SCANKIT_ONESWEEP_ITEMS=12 $S bench sort -n 2^28 --type u32 --pairs --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 3
for cfg in "32 0" "128 0" "512 0" "32 500" "32 1000" "128 600"; do set -- $cfg
  for p in 0.01 0.5; do step "compact $p backoff $1 delay $2"
    SCANKIT_COMPACT_BACKOFF_NS=$1 SCANKIT_COMPACT_DELAY_NS=$2 $S bench compact -n 2^28 --selectivity $p --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2
  done
done
step end
} > "$L" 2>&1
cat "$L"
