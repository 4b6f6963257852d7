#!/usr/bin/env bash
# Session 11, round 2: bigger onesweep tiles where ptxas now fits them (uint64 keys 512 x 18,
# 4-byte keys + 8-byte values 512 x 14, 8-byte keys + 8-byte values 384 x 12 staged early,
# pairs of 4-byte sides 512 x 22 at 2 blocks per SM). Quick sort tests, then onesweep against
# CUB at 2^28 and sweeps for the shapes that changed.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round2.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== bench 2^28 ($(date -u +%H:%M:%S))"
R="--algo onesweep,cub --reps 7 --seed 1"
for t in u64 f64; do echo "-- $t"; $S bench sort -n 2^28 --type $t $R 2>&1 | grep -E "^onesweep|^cub"; done
for t in u32 f32 u16; do for vb in 4 8; do echo "-- $t pairs, $vb-byte values"; $S bench sort -n 2^28 --type $t --pairs --value-bytes $vb $R 2>&1 | grep -E "^onesweep|^cub"; done; done
echo "-- u64 pairs, 8-byte values, 2^27"; $S bench sort -n 2^27 --type u64 --pairs --value-bytes 8 $R 2>&1 | grep -E "^onesweep|^cub"
echo "-- u64 pairs, 4-byte values, 2^27"; $S bench sort -n 2^27 --type u64 --pairs --value-bytes 4 $R 2>&1 | grep -E "^onesweep|^cub"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
echo "-- sweep u64"; timeout 100 $S sweep sort --type u64 --min-log 10 --max-log 26 $X --out /tmp/so-u64 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "-- sweep u32 pairs"; timeout 100 $S sweep sort --type u32 --pairs --min-log 10 --max-log 26 $X --out /tmp/so-p 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "-- sweep u32 pairs 8-byte values"; timeout 100 $S sweep sort --type u32 --pairs --value-bytes 8 --min-log 10 --max-log 26 $X --out /tmp/so-p8 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
