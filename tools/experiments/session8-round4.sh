#!/usr/bin/env bash
# Session 8, GPU round 4: the L2 policy of the input (cp.async with an evict-first policy, in the
# library kernel and the blocked one, against register loads with __ldcs) and the first delay
# before the look-back; int64 2^22-2^28, int32 2^24-2^30, double 2^28.
set -uo pipefail
L=$OUT/session8-round4.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step r4; timeout 300 .devbundle/s8 r4
step end
} > "$L" 2>&1
tail -c 11000 "$L"
