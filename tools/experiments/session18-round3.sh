#!/usr/bin/env bash
# Session 18, round 3: warp-specialized shapes for 4-byte items (int32, float) at 2^22 .. 2^30,
# and 8-byte items at 2^20 .. 2^23 where the blocked tile should hand over (session18_scan_mid.cu).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s18.tar.xz
B=$PWD/.devbundle/x/s18b
L=$OUT/session18-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/session18_scan_mid i32 22 30 large4
timeout 120 $B/session18_scan_mid f32 26 30 large4
timeout 100 $B/session18_scan_mid i64 20 23 mid8
timeout 100 $B/session18_scan_mid f64 20 23 mid8
echo "=== end ($(date -u +%H:%M:%S))"
} > $L 2>&1
tail -c 1500 $L
