#!/usr/bin/env bash
# Session 16, round 3: the warp-specialized compaction tile with look-back warps of its own (loads
# issued ahead as in round 2). racecheck summary, the tests, then bench rows for three shapes
# (SCANKIT_COMPACT_SPECIALIZED_SHAPE) against CUB in one process each.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session16-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== racecheck report"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 $S bench compact -n 1048653 --selectivity 0.5 --algo single-pass --tile specialized --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "RACECHECK SUMMARY|Race reported" | head -n 5
echo "=== tests ($(date -u +%H:%M:%S))"
timeout 120 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*TileSizes*:*ManyTilesPerBlock*' 2>&1 | tail -n 6
SCANKIT_COMPACT_SPECIALIZED_FROM=0 timeout 150 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*single_pass*:-*MoreThan2Pow31*' 2>&1 | tail -n 6
echo "=== bench ($(date -u +%H:%M:%S))"
row() { timeout 60 $S bench compact "$@" --algo single-pass --compare cub --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub" | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for args in "-n 2^28 --selectivity 0.5" "-n 2^28 --selectivity 0.01" "-n 2^28 --selectivity 0.99" "-n 2^28 --op unique" "-n 2^28 --op partition" "-n 2^27 --type u64 --selectivity 0.5" "-n 2^27 --type u64 --selectivity 0.01" "-n 2^25 --selectivity 0.5"; do
  echo -n "segmented $args: "; row $args --tile segmented
  for sh in 0 1 2; do echo -n "shape $sh $args: "; SCANKIT_COMPACT_SPECIALIZED_SHAPE=$sh row $args --tile specialized; done
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L" | cut -c1-300
