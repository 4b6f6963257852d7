#!/usr/bin/env bash
# Session 19, round 4: onesweep pairs with 8-byte values at bigger tiles (one block per SM),
# and the 4-byte pairs / 8-byte keys + 4-byte values winners of round 3 from 2^16 to 2^29
# against the library's shapes (session8_onesweep s19c).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s19s.tar.xz
L=$OUT/session19-round4.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 400 .devbundle/x/s19s/session8_onesweep s19c
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
