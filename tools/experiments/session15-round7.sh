#!/usr/bin/env bash
# Session 15, round 7: the library's warp-specialized kernel (through dl::run) next to the
# experiment's, and the experiment's with 1, 2, 4 and 8 bulk copies per tile load.
set -uo pipefail
L=$OUT/session15-round7.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 .devbundle/s15 r7
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
