#!/usr/bin/env bash
# Session 19, round 5: onesweep pairs with the large tiles (512 threads, one block per SM):
# the pairs tests with the large tile at every size (SCANKIT_ONESWEEP_LARGE_FROM=0), in two
# shards side by side, and with the default thresholds (the above-2^30 pairs test takes the
# large tile by size); compute-sanitizer memcheck / racecheck / synccheck through the CLI on
# every large shape; verify sort both ways.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session19-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
F='*PairsAreStable*:*InPlaceAndArgsort*:*HostContainers*:*BitRanges*'
for i in 0 1; do (SCANKIT_ONESWEEP_LARGE_FROM=0 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 250 $B/test_cuda_sort --gtest_brief=1 --gtest_filter="$F" > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort pairs, large tile at every size, shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== test_cuda_sort large inputs and pairs, default thresholds ($(date -u +%H:%M:%S))"
timeout 150 $B/test_cuda_sort --gtest_brief=1 --gtest_filter='*Large*:*u64.PairsAreStable*:*f64.PairsAreStable*:*u32.PairsAreStable*' 2>&1 | tail -n 3
for tool in memcheck racecheck synccheck; do
  for spec in "u32 4" "i8 4" "f32 8" "u64 4" "f64 8"; do set -- $spec
    echo -n "$tool $1 + $2-byte values, large tile, 2^17 ($(date -u +%H:%M:%S)): "
    SCANKIT_ONESWEEP_LARGE_FROM=0 timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n 2^17 --type $1 --pairs --value-bytes $2 \
      --algo onesweep --no-cub --reps 1 --seed 5 2>&1 | grep -E "SUMMARY|onesweep " | tr -s ' ' | tr '\n' ' '
    echo "[exit ${PIPESTATUS[0]}]"
  done
done
echo "=== verify sort ($(date -u +%H:%M:%S))"; timeout 100 $S verify sort --cases 200 --seed 1919 2>&1 | tail -n 1
echo "=== verify sort, large tile at every size"; SCANKIT_ONESWEEP_LARGE_FROM=0 timeout 100 $S verify sort --cases 200 --seed 1920 2>&1 | tail -n 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
