#!/usr/bin/env bash
# Session 17, round 4: the warp-specialized compaction tile with the counts tree (level entries
# completed by atomic adds, no upward publishing by look-backs), 1/2/4 counting warps, traced.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/r1.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session17-round4.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for a in "28 0.5" "28 0.01" "28 0.99" "30 0.5"; do for sh in 0 1 2 3 4; do timeout 60 $B/session17_compact_trace $a $sh; done; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
grep -E "^shape|^straggle|^notice|look-back: dur|wait prefix|buffer cycle|tile period|count \(|^===" "$L"
