#!/usr/bin/env bash
# Session 6, GPU round 3 (and 9, with the raking block scan): the look-back scan with the 6 + 6 staged tile (compiled for 256
# threads x 4 blocks per SM): the scan tests in full, the staged tile at every size, and the
# scan benchmarks against CUB and the copy (2^28, 2^30, other types and operators).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round9.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_scan"; timeout 200 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 4
step "test_cuda_scan, staged tile at every size"; SCANKIT_LOOKBACK_STAGED_FROM=0 timeout 150 $B/test_cuda_scan --gtest_brief=1 \
  --gtest_filter='*EveryTypeAndOperator*:*NonCommutativeAffine*:*StressRandomSizes*:*Deterministic*:*BlockSizes*' 2>&1 | tail -n 4
step "bench scan default"; $S bench scan --reps 20 --json $OUT/bench.json 2>&1 | tail -n 18
for t in i32 u32 f32; do for n in 2^28 2^30; do step "bench $t $n"
  $S bench scan -n $n --type $t --reps 10 --algo decoupled-lookback --device-only 2>&1 | tail -n 5; done; done
for t in i64 u64 f64; do step "bench $t 2^28"; $S bench scan -n 2^28 --type $t --reps 10 --algo decoupled-lookback --device-only 2>&1 | tail -n 5; done
for o in max min; do for n in 2^20 2^24 2^28; do step "bench $o $n"; $S bench scan -n $n --op $o --reps 20 --algo decoupled-lookback --device-only 2>&1 | tail -n 5; done; done
step end
} > "$L" 2>&1
cat "$L"
