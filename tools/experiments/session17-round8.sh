#!/usr/bin/env bash
# Session 17, round 8: the warp-specialized compaction tile from 2^25 bytes (where the small
# tile stops). Tests, default-dispatch rows at the new threshold, and size sweeps against CUB
# for the selectivities and types round 7 did not reach (uint32 99%, uint64 1/50/99%), unique
# and partition.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session17-round8.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_compact single_pass, default"
timeout 100 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*single_pass*:-*MoreThan2Pow31*' 2>&1 | tail -n 3
echo "=== bench, default dispatch near the threshold ($(date -u +%H:%M:%S))"
row() { timeout 60 $S bench compact "$@" --algo single-pass --compare cub --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub" | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for n in 2^22 2^23 2^24; do echo -n "select_if u32 $n 0.5: "; row -n $n --selectivity 0.5; done
for n in 2^21 2^22 2^23; do echo -n "select_if u64 $n 0.5: "; row -n $n --type u64 --selectivity 0.5; done
echo "=== sweeps ($(date -u +%H:%M:%S))"
cd $OUT
sw() { timeout 100 $S sweep compact "$@" --algo single-pass --compare cub --device-only --reps 7 --seed 1 --min-log 10 --no-plot > /dev/null 2>&1; echo "$* done $(date -u +%H:%M:%S)"; }
sw --selectivity 0.99 --max-log 28 --out $OUT/s17-sweep-u32-0.99
for p in 0.01 0.5 0.99; do sw --type u64 --selectivity $p --max-log 27 --out $OUT/s17-sweep-u64-$p; done
sw --op unique --max-log 28 --out $OUT/s17-sweep-unique-u32
sw --op partition --selectivity 0.5 --max-log 28 --out $OUT/s17-sweep-partition-u32
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L" | cut -c1-300
