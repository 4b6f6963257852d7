#!/usr/bin/env bash
# Session 20, round 2: (a) the flat look-back (session20_scan_cluster.cu, round 2 rows) for
# 8-byte items at 2^16-2^22, against the blocked tile with its tree and without a look-back;
# (b) onesweep shapes for 16-byte values (session8_onesweep.cu s20), which ran at 0.92-0.96x CUB
# with uint32 keys from 2^23 in round 1.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session20-round2.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== flat look-back, int64 ($(date -u +%H:%M:%S))"
timeout 150 $B/session20_scan_cluster i64 16 22 2
echo "=== flat look-back, double ($(date -u +%H:%M:%S))"
timeout 60 $B/session20_scan_cluster f64 19 21 2
echo "=== flat look-back, int32 ($(date -u +%H:%M:%S))"
timeout 60 $B/session20_scan_cluster i32 21 22 2
echo "=== onesweep, 16-byte values ($(date -u +%H:%M:%S))"
timeout 300 $B/session8_onesweep s20
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
