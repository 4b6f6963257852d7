#!/usr/bin/env bash
# Session 5, fourth GPU round: onesweep ranking with match.any against 8 ballots, and the
# compaction's medium tile as 384 threads x 4 vectors (CUB's 36 warps per SM) against 256 x 8.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round4.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_sort quick, match.any"; SCANKIT_ONESWEEP_MATCH=1 SCANKIT_TEST_QUICK=1 timeout 60 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*u32*:*u64*' 2>&1 | tail -n 3
step "test_cuda_compact quick, 384 threads"; SCANKIT_COMPACT_384=1 SCANKIT_TEST_QUICK=1 timeout 60 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
for m in 0 1; do
  for t in u32 u64; do step "sort $t match $m"; SCANKIT_ONESWEEP_MATCH=$m $S bench sort -n 2^28 --type $t --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2; done
  step "sort pairs u32 match $m"; SCANKIT_ONESWEEP_MATCH=$m $S bench sort -n 2^28 --type u32 --pairs --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2
done
for c in 0 1; do for p in 0.01 0.5 0.99; do step "compact $p 384=$c"
  SCANKIT_COMPACT_384=$c $S bench compact -n 2^28 --selectivity $p --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2
done; done
step "compact 2^30 50% 384=1"; SCANKIT_COMPACT_384=1 $S bench compact -n 2^30 --selectivity 0.5 --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2
step end
} > "$L" 2>&1
cat "$L"
