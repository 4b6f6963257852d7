#!/usr/bin/env bash
# Session 22, round 6: (a) the library at 2^19-2^21 (8-byte items, eighth steps, mode 6) with the
# one-tile-per-SM limit at 512 (the tuning), 640, 768 and 1024 threads and the load window at
# 192 and 320 tiles (environment overrides), alternating with the tuning; (b) tools/gpu-check
# tests for the scan (its new steps: a 3-tile load window, the blocked tile at large sizes).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session22-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in i64 f64; do
  for v in tuned one640 tuned one768 tuned one1024 tuned win192 tuned win320; do
    e=""
    case $v in one*) e="SCANKIT_LOOKBACK_ONE_TILE_PER_SM=${v#one}" ;; win*) e="SCANKIT_LOOKBACK_LOAD_WINDOW=${v#win}" ;; esac
    echo "=== library in eighth steps, $t, $v ($(date -u +%H:%M:%S))"
    env $e timeout 60 $B/session22_scan_window $t 19 21 6
  done
done
} > "$L" 2>&1
SCANKIT_BUNDLE=.devbundle/x/bin SCANKIT_ONLY=scan timeout 420 tools/gpu-check tests > /dev/null 2>&1
grep -E "^===|PASSED|FAILED|exit" $OUT/gpu-check-tests.log | head -40
