#!/usr/bin/env bash
# Session 18, round 2: 8-byte scans, where the blocked tile can start (2^10 .. 2^16) and the
# warp-specialized shapes at large sizes (2^23 .. 2^28), in session18_scan_mid.cu.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s18.tar.xz
B=$PWD/.devbundle/x/s18b
L=$OUT/session18-round2.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 100 $B/session18_scan_mid i64 10 16 small
timeout 100 $B/session18_scan_mid f64 10 16 small
timeout 200 $B/session18_scan_mid i64 23 28 large
timeout 150 $B/session18_scan_mid f64 24 28 large
echo "=== end ($(date -u +%H:%M:%S))"
} > $L 2>&1
tail -c 1500 $L
