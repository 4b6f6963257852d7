#!/usr/bin/env bash
# Session 18, round 4: the warp-specialized scan tile with its producer loading ahead
# (session18_scan_ahead.cu), against the library's kernel at the same shapes.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s18.tar.xz
B=$PWD/.devbundle/x/s18b
L=$OUT/session18-round4.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 $B/session18_scan_ahead i32 24 30
timeout 100 $B/session18_scan_ahead f32 27 30
timeout 150 $B/session18_scan_ahead i64 23 28
timeout 100 $B/session18_scan_ahead f64 26 28
echo "=== end ($(date -u +%H:%M:%S))"
} > $L 2>&1
tail -c 1500 $L
