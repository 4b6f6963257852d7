#!/usr/bin/env bash
# Session 8, GPU round 14: test_cuda_sort in full with the final shapes (round 13's single run
# outran its 290 s limit), as two gtest shards run side by side.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session8-round14.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do
  (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 480 $B/test_cuda_sort --gtest_brief=1 > $OUT/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> $OUT/shard$i.txt) &
done
wait
for i in 0 1; do echo "=== shard $i"; tail -n 6 $OUT/shard$i.txt; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
