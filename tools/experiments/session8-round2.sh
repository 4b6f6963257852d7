#!/usr/bin/env bash
# Session 8, GPU round 2: the blocked tile again, in repeated contexts (int32 2^27-2^30, int64
# 2^22-2^28), with the library kernel first and last in each context, and back-off / first-delay
# variants of the look-back (CUB sleeps about 1.3 us before its first status read).
set -uo pipefail
L=$OUT/session8-round2.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step r2i32; timeout 200 .devbundle/s8 r2i32
step r2i64; timeout 200 .devbundle/s8 r2i64
step end
} > "$L" 2>&1
tail -c 11000 "$L"
