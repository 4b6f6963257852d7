#!/usr/bin/env bash
# Session 15, GPU round 5: the persistent, bulk-copy pipelined look-back scan
# specialized_kernel: a storer warp (stores issued as soon as a tile is scanned), early tile ids.
# library's blocked kernel, CUB and the copy; int32 at 2^22-2^30, int64 at 2^21-2^28.
set -uo pipefail
L=$OUT/session15-round5.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step quick; timeout 40 .devbundle/s15 quick5
step r1; timeout 240 .devbundle/s15 r5
step end
} > "$L" 2>&1
tail -c 11000 "$L"
