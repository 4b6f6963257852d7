#!/usr/bin/env bash
# Session 22, round 11: the final code. tools/gpu-check tests for the scan (every scan test, the
# blocked tile at every size, a 3-tile load window, the blocked tile at large sizes, the
# warp-specialized tile at every size), then test_cuda_compact's TileSizes/scan_scatter 30 more
# times with fresh inputs (round 8's one failure), the one-launch path's kernel at other shapes
# (session22_scan_window.cu mode 7), and the compaction suite once more in full.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session22-round11.log
SCANKIT_BUNDLE=.devbundle/x/bin SCANKIT_ONLY=scan timeout 300 tools/gpu-check tests > /dev/null 2>&1
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== TileSizes/scan_scatter x 30 ($(date -u +%H:%M:%S))"
timeout 150 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*TileSizes/scan_scatter' --gtest_repeat=30 2>&1 | grep -E "SEED|count|PASSED|FAILED" | sort | uniq -c
for t in i32 f32 i64; do
  echo "=== one-launch shapes, $t, 2^10-2^13 ($(date -u +%H:%M:%S))"
  timeout 60 $B/session22_scan_window $t 10 13 7
done
echo "=== test_cuda_compact in full ($(date -u +%H:%M:%S))"
timeout 140 $B/test_cuda_compact --gtest_brief=1 2>&1 | grep -E "SEED|count|PASSED|FAILED|Failure"
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
grep -E "^===|PASSED|FAILED|exit" $OUT/gpu-check-tests.log "$L"
