#!/usr/bin/env bash
# Session 17, round 1: the warp-specialized compaction tile traced (session17_compact_trace,
# built with session17-trace.patch): where a tile's time goes, at 1, 50 and 99% selected.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/r1.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session17-round1.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
for p in 0.5 0.01 0.99; do timeout 60 $B/session17_compact_trace 28 $p; done
timeout 60 $B/session17_compact_trace 30 0.5
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
