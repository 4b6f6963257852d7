#!/usr/bin/env bash
# Session 18, round 8: the blocked tile reading level 1 from the aggregates (runs_before) or
# waiting for its entries, interleaved twice in one process (session18_scan_mid.cu level1).
# As run, the experiment's blocked kernel ignored the level1 flag (it called look_back<false>; fixed
# since), so all its rows waited for level 1 and the comparison is with the library's rows
# (dl::run: the blocked tile with runs_before up to 256 tiles and the guess prefetch).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s18.tar.xz
X=$PWD/.devbundle/x/s18b
L=$OUT/session18-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 60 $X/session18_scan_mid i64 16 21 level1
timeout 60 $X/session18_scan_mid f64 16 21 level1
timeout 60 $X/session18_scan_mid i32 17 22 level1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
tail -c 300 "$L"
