#!/usr/bin/env bash
# Session 22, round 3: tiles of 8,192 items (128 at 2^20) against load windows over 4,096-item tiles,
# session22_scan_window.cu mode 4, int64 and double at 2^19.5-2^21.5 in quarter steps, with the library in the same process.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session22-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== window experiment, int64 ($(date -u +%H:%M:%S))"
timeout 200 $B/session22_scan_window i64 19 21 4
echo "=== window experiment, double ($(date -u +%H:%M:%S))"
timeout 100 $B/session22_scan_window f64 20 21 4
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
