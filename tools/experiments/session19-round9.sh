#!/usr/bin/env bash
# Session 19, round 9: after the review. Every producer thread of the scan's warp-specialized
# tile now arrives on `ready` (the one-producer 8-byte kernel too); the scan tests gained a
# 4-byte non-commutative operator (affine maps mod 2^16), which takes the two-producer tile;
# onesweep's large pairs tiles check that their shared memory fits. The scan tests with the
# tile at every size and by default, memcheck / racecheck / synccheck, the 8-byte bench rows
# again, and the sort pairs tests.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session19-round9.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { "$S" bench scan --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --reps 10 "$@" | grep -E "^(decoupled-lookback|cub|copy) "; }
for t in i64 f64 i32; do echo "=== $t 2^28"; row -n 2^28 --type $t; done
echo "=== test_cuda_scan, decoupled-lookback and affine tests ($(date -u +%H:%M:%S))"
timeout 120 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*NonCommutativeAffine*:*decoupled_lookback*:-*MoreThan2Pow31*' 2>&1 | tail -n 3
echo "=== specialized at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 80 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 2
for tool in memcheck synccheck racecheck; do
  echo -n "$tool, specialized at every size ($(date -u +%H:%M:%S)): "
  SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 \
    --gtest_filter='*NonCommutativeAffine/decoupled_lookback:*Deterministic/decoupled_lookback' 2>&1 | tail -n 3 | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== test_cuda_sort pairs ($(date -u +%H:%M:%S))"
timeout 100 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*u32.PairsAreStable*:*u64.PairsAreStable*:*f32.PairsAreStable*' 2>&1 | tail -n 2
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
