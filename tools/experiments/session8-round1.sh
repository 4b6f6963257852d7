#!/usr/bin/env bash
# Session 8, GPU round 1: the blocked shared-memory tile (tools/experiments/session8_scan_blocked.cu)
# against the library's striped tile, CUB and the copy; int64 at 2^20-2^28, double at 2^28,
# int32 at 2^20-2^30 and int32 max at 2^28. The binary is built here and carried in .devbundle/s8.
set -uo pipefail
L=$OUT/session8-round1.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step i64; timeout 150 .devbundle/s8 i64
step f64; timeout 60 .devbundle/s8 f64
step i32; timeout 200 .devbundle/s8 i32
step end
} > "$L" 2>&1
tail -c 11000 "$L"
