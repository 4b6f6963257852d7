#!/usr/bin/env bash
# Session 18, round 11: the trace of the warp-specialized tile (session17_scan_trace.cu with
# session17-scan-trace.patch, built against the session 18 shape 128 x 11 x 3), 2^28 int32
# and int64, for the next session's work on the last percent of the copy. Prepared in session 18
# and not run (no device time left). Rebuild the binary first: the commands are in
# session17_scan_trace.cu (patch, nvcc with -DSCANKIT_SCAN_TRACE, revert), into .devbundle/s18t.tar.xz.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s18t.tar.xz
L=$OUT/session18-round11.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 40 .devbundle/x/s18t/session17_scan_trace 28 i32
timeout 40 .devbundle/x/s18t/session17_scan_trace 28 i64
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
