#!/usr/bin/env bash
# Session 15, GPU round 4: the persistent, bulk-copy pipelined look-back scan
# specialized_kernel with the producer warp also issuing the stores (pST), and more shapes.
# library's blocked kernel, CUB and the copy; int32 at 2^22-2^30, int64 at 2^21-2^28.
set -uo pipefail
L=$OUT/session15-round4.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step quick; timeout 60 .devbundle/s15 quick4
step r1; timeout 300 .devbundle/s15 r4
step end
} > "$L" 2>&1
tail -c 11000 "$L"
