#!/usr/bin/env bash
# Session 18, round 12 (prepared, not run: no device time left): the warp-specialized scan tile
# with one, two and four producer warps per block (session18_scan_ahead.cu, mode "producers";
# producers_kernel there) against the library's kernel, 2^26-2^30 int32 and float, 2^26-2^28
# int64 and double. Build the binary first (the command is in the file's header) into
# .devbundle/s18p.tar.xz as s18p/session18_scan_ahead. If a shape wins, run the scan tests with
# it at every size and compute-sanitizer racecheck before taking it into the library.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s18p.tar.xz
X=$PWD/.devbundle/x/s18p
L=$OUT/session18-round12.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 $X/session18_scan_ahead i32 26 30 producers
timeout 100 $X/session18_scan_ahead f32 28 30 producers
timeout 100 $X/session18_scan_ahead i64 26 28 producers
timeout 60 $X/session18_scan_ahead f64 28 28 producers
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
tail -c 3000 "$L"
