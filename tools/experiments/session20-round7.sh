#!/usr/bin/env bash
# Session 20, round 7: test_cuda_sort in full (two shards; about 450 s) with the session's
# onesweep shapes, through tools/gpu-check's tests part for the sort program.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session20-round7.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for shard in 0 1; do
  echo "=== test_cuda_sort, full, shard $shard of 2 ($(date -u +%H:%M:%S))"
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard timeout 285 $B/test_cuda_sort --gtest_brief=1 2>&1 | tail -n 3
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
