#!/usr/bin/env bash
# Session 11, round 5: the single-block sort at 256 threads (512 / 1,024 only for the largest
# small inputs). Quick sort tests, sanitizers on single-block sorts through the CLI, and sweeps
# 2^10-2^16 (where the single block runs) against CUB for every key size and the pair shapes.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (SCANKIT_TEST_QUICK=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 200 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
wait
for i in 0 1; do echo "=== test_cuda_sort quick shard $i"; tail -n 4 /tmp/shard$i.txt; done
echo "=== sanitizers ($(date -u +%H:%M:%S))"
for tool in memcheck racecheck synccheck; do
  for a in "-n 4096 --type u32" "-n 1000 --type f32 --descending" "-n 2048 --type u64" "-n 8192 --type u32" "-n 2048 --type u32 --pairs --value-bytes 8" "-n 1024 --type u64 --pairs --value-bytes 16" "-n 16384 --type f32"; do
    echo "-- $tool $a"; timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort $a --algo onesweep --no-cub --reps 1 --seed 5 2>&1 | grep -E "^onesweep  |ERROR SUMMARY|RACECHECK SUMMARY" | head -n 3
  done
done
echo "=== sweeps 2^10-2^16 ($(date -u +%H:%M:%S))"
X="--algo onesweep,cub --reps 15 --seed 1 --no-plot --min-log 10 --max-log 16"
for t in u32 f32 u64 f64 u16 i8; do echo "-- sweep $t"; timeout 60 $S sweep sort --type $t $X --out /tmp/so-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
for vb in 4 8 16; do echo "-- sweep u32 pairs $vb"; timeout 60 $S sweep sort --type u32 --pairs --value-bytes $vb $X --out /tmp/so-p$vb 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
for vb in 4 8; do echo "-- sweep u64 pairs $vb"; timeout 60 $S sweep sort --type u64 --pairs --value-bytes $vb $X --out /tmp/so-q$vb 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
