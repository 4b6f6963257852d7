#!/usr/bin/env bash
# Session 16, round 6: the producer counts all rows of a tile unrolled (loads and scans overlap);
# three shapes per item size (SCANKIT_COMPACT_SPECIALIZED_SHAPE) against the segmented tile and
# CUB, one process each; sizes for the threshold.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session16-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== racecheck"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 $S bench compact -n 1048653 --selectivity 0.5 --algo single-pass --tile specialized --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "RACECHECK SUMMARY" | head -n 3
echo "=== bench ($(date -u +%H:%M:%S))"
row() { timeout 60 $S bench compact "$@" --algo single-pass --compare cub --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub" | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for args in "-n 2^28 --selectivity 0.01" "-n 2^28 --selectivity 0.5" "-n 2^28 --selectivity 0.99" "-n 2^27 --type u64 --selectivity 0.01" "-n 2^27 --type u64 --selectivity 0.5" "-n 2^27 --type u64 --selectivity 0.99"; do
  echo -n "segmented $args: "; row $args --tile segmented
  for sh in 0 1 2; do echo -n "shape $sh $args: "; SCANKIT_COMPACT_SPECIALIZED_SHAPE=$sh row $args --tile specialized; done
done
for args in "-n 2^24 --selectivity 0.5" "-n 2^26 --selectivity 0.5" "-n 2^30 --selectivity 0.5" "-n 2^28 --op unique" "-n 2^28 --op partition" "-n 2^25 --type u64 --selectivity 0.5"; do
  echo -n "segmented $args: "; row $args --tile segmented
  echo -n "shape 0 $args: "; row $args --tile specialized
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L" | cut -c1-300
