#!/usr/bin/env bash
# Session 11, round 8: the final code (51a2687) — test_cuda_sort in full (two shards) and
# `scankit verify sort`.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 300 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort FULL shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== verify sort ($(date -u +%H:%M:%S))"
timeout 200 $S verify sort 2>&1 | tail -n 5
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
