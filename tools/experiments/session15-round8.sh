#!/usr/bin/env bash
# Session 15, round 8: the library's warp-specialized kernel (through dl::run) next to the
# the library kernel launched plainly and as a programmatic dependent, next to the experiment kernel.
#
L=$OUT/session15-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 .devbundle/s15 r8
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
