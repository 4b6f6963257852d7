#!/usr/bin/env bash
# Session 17, round 3: what the look-back of the warp-specialized compaction tile waits for
# (every tile's globaltimer stamps; session17_compact_trace global_analysis).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/r1.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session17-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for a in "28 0.5 0" "28 0.5 2" "28 0.01 0" "28 0.99 0" "27 0.5 0"; do timeout 60 $B/session17_compact_trace $a; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
