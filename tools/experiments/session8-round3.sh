#!/usr/bin/env bash
# Session 8, GPU round 3: where the 8-byte time goes: the blocked tile without its look-back
# (streaming alone; its output is wrong by design), loads through registers instead of cp.async,
# plain instead of streaming stores; int64 at 2^28 and 2^26, int32 at 2^28.
set -uo pipefail
L=$OUT/session8-round3.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step r3; timeout 200 .devbundle/s8 r3
step end
} > "$L" 2>&1
tail -c 11000 "$L"
