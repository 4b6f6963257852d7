#!/usr/bin/env bash
# Session 15, GPU round 1: the persistent, bulk-copy pipelined look-back scan
# (tools/experiments/session15_scan_pipelined.cu, built here as .devbundle/s15) against the
# library's blocked kernel, CUB and the copy; int32 at 2^22-2^30, int64 at 2^21-2^28.
set -uo pipefail
L=$OUT/session15-round1.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step quick; timeout 60 .devbundle/s15 quick
step r1; timeout 300 .devbundle/s15 r1
step end
} > "$L" 2>&1
tail -c 11000 "$L"
