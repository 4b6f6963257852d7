#!/usr/bin/env bash
# Session 10, round 10: the whole CUDA sort suite (not the quick one), and racecheck on the
# onesweep tests of uint32, float and uint16 keys (histograms of 16, 8 and 16 copies).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session10-round10.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 300 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort (whole) shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== racecheck ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*CudaSort_u32*onesweep:*CudaSort_f32*onesweep:*CudaSort_u16*onesweep' 2>&1 | tail -n 3
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
