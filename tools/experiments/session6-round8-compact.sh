#!/usr/bin/env bash
# Session 6, GPU round 8: the compaction kernel with S staged input vectors per thread
# (cp.async into shared memory, branch next/compact-staged): the staged-tile tests under each
# S, then single-pass against CUB at 1/50/99% and partition, uint32 and uint64, S = 0, 4, 8.
set -uo pipefail
mkdir -p .devbundle/c && tar -C .devbundle/c -xJf .devbundle/compact.tar.xz
B=$PWD/.devbundle/c/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round8.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_compact StagedTiles"; timeout 120 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*Staged*' 2>&1 | tail -n 3
for s in 4 8; do step "test_cuda_compact quick, SCANKIT_COMPACT_STAGED=$s"; SCANKIT_COMPACT_STAGED=$s SCANKIT_TEST_QUICK=1 timeout 120 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3; done
for s in 0 4 8; do for p in 0.01 0.5 0.99; do step "u32 2^28 p=$p S=$s"
  SCANKIT_COMPACT_STAGED=$s $S bench compact -n 2^28 --selectivity $p --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2
done; done
for s in 0 4 8; do step "partition u32 2^28 S=$s"; SCANKIT_COMPACT_STAGED=$s $S bench compact -n 2^28 --op partition --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2; done
for s in 0 4 8; do step "u64 2^28 p=0.5 S=$s"; SCANKIT_COMPACT_STAGED=$s $S bench compact -n 2^28 --type u64 --selectivity 0.5 --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2; done
for s in 0 4 8; do step "u32 2^30 p=0.5 S=$s"; SCANKIT_COMPACT_STAGED=$s $S bench compact -n 2^30 --selectivity 0.5 --algo single-pass --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2; done
step end
} > "$L" 2>&1
cat "$L"
