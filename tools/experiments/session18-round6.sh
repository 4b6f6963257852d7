#!/usr/bin/env bash
# Session 18, round 6: 8-byte scans at 2^14 .. 2^21 with an L2 prefetch of the guessed tile
# (session18_scan_mid.cu prefetch), and the library's size sweeps there at 41 runs per size.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/s18.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit; X=$PWD/.devbundle/x/s18b
L=$OUT/session18-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 100 $X/session18_scan_mid i64 14 21 prefetch
timeout 60 $X/session18_scan_mid f64 16 21 prefetch
echo "=== sweeps, 41 runs ($(date -u +%H:%M:%S))"
cd $OUT
timeout 60 $S sweep scan --over size --type i64 --min-log 10 --max-log 22 --reps 41 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s18-sweep41-i64 >/dev/null 2>&1; echo "[exit $?]"
timeout 50 $S sweep scan --over size --type f64 --min-log 14 --max-log 22 --reps 41 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s18-sweep41-f64 >/dev/null 2>&1; echo "[exit $?]"
timeout 50 $S sweep scan --over size --type i32 --min-log 10 --max-log 16 --reps 41 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --no-plot --out $OUT/s18-sweep41-i32 >/dev/null 2>&1; echo "[exit $?]"
rm -f $OUT/*.json
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
tail -c 600 "$L"
