#!/usr/bin/env bash
# Session 8, GPU round 17: onesweep uint32 keys, 512 x 22 (library) against 512 x 23 and
# 512 x 24 at 3 blocks per SM (no spills at 40 registers), 2^20-2^30, 2^28 twice.
set -uo pipefail
L=$OUT/session8-round17.log
{ echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  timeout 300 .devbundle/onesweep 17; echo "=== end ($(date -u +%H:%M:%S))"; } > "$L" 2>&1
cat "$L"
