#!/usr/bin/env bash
# Session 22, round 8: (a) int64 in eighth steps at 2^23-2^25, three passes (round 7 had two slow
# readings at 2^23.75-2^23.88 in the warp-specialized tile, whose code did not change, with CUB
# slow at 2^23.75 in the same pass); (b) tools/gpu-check tests for the compaction (its look-back
# tree now carves two counter words); (c) scankit verify scan.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session22-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for pass in 1 2 3; do
  echo "=== library in eighth steps, i64, new, pass $pass ($(date -u +%H:%M:%S))"
  timeout 100 $B/session22_scan_window i64 23 25 6
done
echo "=== verify scan ($(date -u +%H:%M:%S))"
timeout 200 $S verify scan --cases 300 2>&1 | tail -n 4
} > "$L" 2>&1
SCANKIT_BUNDLE=.devbundle/x/bin SCANKIT_ONLY=compact timeout 450 tools/gpu-check tests > /dev/null 2>&1
grep -E "^===|PASSED|FAILED|exit|passed|failed" "$L" $OUT/gpu-check-tests.log | head -40
