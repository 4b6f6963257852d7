#!/usr/bin/env bash
# Session 6, GPU round 12: the compaction kernel's block scan by raking (tile::raking_scan_tile)
# against one warp scan per vector (SCANKIT_COMPACT_RAKING=0): tests under both, then
# single-pass against CUB (uint32 1/50/99%, partition, unique, uint64, 2^30, smaller sizes).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round12.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_compact (raking)"; timeout 200 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
step "memcheck quick (raking)"; SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
C="$S bench compact --algo single-pass --compare cub --reps 10 --seed 1 --device-only"
for k in 1 0; do
  for p in 0.01 0.5 0.99; do step "u32 2^28 p=$p raking=$k"; SCANKIT_COMPACT_RAKING=$k $C -n 2^28 --selectivity $p 2>&1 | tail -n 2; done
  for op in partition unique select_flagged; do step "$op u32 2^28 raking=$k"; SCANKIT_COMPACT_RAKING=$k $C -n 2^28 --op $op 2>&1 | tail -n 2; done
  step "u64 2^28 p=0.5 raking=$k"; SCANKIT_COMPACT_RAKING=$k $C -n 2^28 --type u64 --selectivity 0.5 2>&1 | tail -n 2
  for n in 2^20 2^24; do step "u32 $n p=0.5 raking=$k"; SCANKIT_COMPACT_RAKING=$k $C -n $n --selectivity 0.5 2>&1 | tail -n 2; done
done
step end
} > "$L" 2>&1
cat "$L"
