#!/usr/bin/env bash
# Session 8, GPU round 13 (final sort shapes: float keys and int8 keys back on session 7's
# late-staged tiles, whose early-staged versions spilled): test_cuda_sort in full, verify sort,
# memcheck on the onesweep tests, and the sort benchmarks for every key type against CUB.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session8-round13.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
X="--algo onesweep,cub --reps 7 --seed 1"
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_sort full"; timeout 290 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"
step "verify sort"; timeout 60 $S verify sort --cases 100 2>&1 | tail -n 1
step "memcheck test_cuda_sort quick (*onesweep*)"; SCANKIT_TEST_QUICK=1 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*onesweep*' 2>&1 | tail -n 2; echo "[exit ${PIPESTATUS[0]}]"
for t in u32 i32 f32 u64 i64 f64 u16 i16 u8 i8; do step "bench sort $t 2^28"; timeout 60 $S bench sort -n 2^28 --type $t $X 2>&1 | grep -E "onesweep|^cub"; done
for v in 4 8; do step "bench sort u32 pairs ($v-byte values) 2^28"; timeout 60 $S bench sort -n 2^28 --type u32 --pairs --value-bytes $v $X 2>&1 | grep -E "onesweep|^cub"; done
step "bench sort f32 pairs 2^28"; timeout 60 $S bench sort -n 2^28 --type f32 --pairs $X 2>&1 | grep -E "onesweep|^cub"
step end
} > "$L" 2>&1
tail -c 9000 "$L"
