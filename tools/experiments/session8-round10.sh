#!/usr/bin/env bash
# Session 8, GPU round 10: onesweep tiles staged early around the best of round 9 (uint32 keys
# 2^20-2^30), pairs (2^22, 2^28) and 64-bit keys (2^24, 2^28), against the library now and CUB.
set -uo pipefail
L=$OUT/session8-round10.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u


step "onesweep shapes"; timeout 400 .devbundle/onesweep 10
step end
} > "$L" 2>&1
tail -c 11000 "$L"
