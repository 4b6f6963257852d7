#!/usr/bin/env bash
# Session 11, round 4: the single-block sort's time by pass and by block size
# (session11_small_sort), against CUB and the library in one process.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session11-round4.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/session11_small_sort 31
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
