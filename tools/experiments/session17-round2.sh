#!/usr/bin/env bash
# Session 17, round 2: the warp-specialized compaction tile with its count spread over 1, 2 or 4
# counting warps (session17_compact_trace, shapes 0-4), traced; uint32 select_if.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/r1.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session17-round2.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for n in 30 28; do for p in 0.5 0.01 0.99; do for sh in 0 1 2 3 4; do
  timeout 60 $B/session17_compact_trace $n $p $sh
done; done; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
grep -E "^shape|^SM clock|count \(|look-back: dur|wait prefix|buffer cycle|tile period|^===" "$L"
