#!/usr/bin/env bash
# Session 20, round 11: onesweep shapes for two-byte keys with 4-byte values at 2^14-2^28
# (session8_onesweep.cu s20c; the library's 384 x 28 ran at 1.01-1.09x CUB from 2^14 to 2^17).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session20-round11.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 $B/session8_onesweep s20c
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
