#!/usr/bin/env bash
# Session 15, round 9: the library's warp-specialized kernel (through dl::run) next to the
# round 8 again, with the library kernel's dynamic shared memory 128-byte aligned.
#
L=$OUT/session15-round9.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 .devbundle/s15 r8
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
