#!/usr/bin/env bash
# Session 20, round 3: onesweep shapes (session8_onesweep.cu s20) for one-byte keys with 4-byte
# values and for 16-byte values (round 2's run stopped on the harness's workspace estimate).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session20-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 400 $B/session8_onesweep s20
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
