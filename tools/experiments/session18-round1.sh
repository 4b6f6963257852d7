#!/usr/bin/env bash
# Session 18, round 1: 8-byte scans at 2^16 .. 2^23 (session18_scan_mid.cu: the library's
# dispatch against its own kernels at other shapes, CUB and the copy in the same process), and
# the trace of the warp-specialized tile at 2^28 (session17_scan_trace.cu with
# session17-scan-trace.patch) for int32 and int64.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s18.tar.xz
B=$PWD/.devbundle/x/s18b
L=$OUT/session18-round1.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== trace ($(date -u +%H:%M:%S))"
timeout 60 $B/session17_scan_trace 28 i32
timeout 60 $B/session17_scan_trace 28 i64
timeout 60 $B/session17_scan_trace 30 i32
echo "=== mid sizes int64 ($(date -u +%H:%M:%S))"
timeout 200 $B/session18_scan_mid i64 16 23
echo "=== mid sizes double ($(date -u +%H:%M:%S))"
timeout 120 $B/session18_scan_mid f64 17 22
echo "=== end ($(date -u +%H:%M:%S))"
} > $L 2>&1
tail -c 3000 $L
