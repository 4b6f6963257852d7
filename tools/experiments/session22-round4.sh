#!/usr/bin/env bash
# Session 22, round 4: (a) session22_scan_window.cu mode 5, int64 and double at 2^19-2^21 in
# eighth steps of the exponent: the blocked tile's size (4,096-8,192 items) against the tile count
# per SM, level 1 from the aggregates up to 192 tiles, and the load window; (b) mode 6, the library
# alone against CUB at 2^10-2^26 in eighth steps, for int32, float, int64 and double (the sweeps so
# far took powers of two and 1.5 x 2^k only).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session22-round4.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in i64 f64; do
  echo "=== tile shapes, $t ($(date -u +%H:%M:%S))"
  timeout 200 $B/session22_scan_window $t 19 21 5
done
for t in i32 f32 i64 f64; do
  echo "=== library in eighth steps, $t ($(date -u +%H:%M:%S))"
  timeout 200 $B/session22_scan_window $t 10 26 6
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
tail -n 3 "$L"
