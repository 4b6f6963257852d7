#!/usr/bin/env bash
# Session 22, round 10: session22_scan_stress.cu, the library's in-place exclusive uint32 scan and
# scan-scatter's select_if repeated 50,000 times per size (two-tile sizes around n = 11264, where
# round 8's test failed once), with the striped tile's partial vectors on (the library) and off,
# alternating, two passes each.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session22-round10.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for pass in 1 2; do
  for v in true false; do
    echo "=== stress, partial vectors $v, pass $pass ($(date -u +%H:%M:%S))"
    timeout 200 $B/session22_scan_stress_$v 50000
  done
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
