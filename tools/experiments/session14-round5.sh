#!/usr/bin/env bash
# Session 14, round 5: the guess prefetch for 8-byte items in the segmented tile (experiment
# switch SCANKIT_COMPACT_PREFETCH8=1; prefetch threshold forced to 0 so it runs at every size
# measured), A/B in alternating processes against CUB; a memcheck/racecheck run with it.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session14-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for tool in memcheck racecheck; do
  echo -n "$tool u64 select_if prefetch: "; SCANKIT_COMPACT_PREFETCH8=1 SCANKIT_COMPACT_PREFETCH_FROM=0 timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench compact -n 1048653 --type u64 --selectivity 0.5 --algo single-pass --tile segmented --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY|RACECHECK SUMMARY" | tr -s ' ' | tr '\n' ' '; echo
done
row() { timeout 90 $S bench compact "$@" --algo single-pass --tile segmented --compare cub --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub" | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
export SCANKIT_COMPACT_PREFETCH_FROM=0
for k in 1 2; do
  for args in "-n 2^27 --selectivity 0.5" "-n 2^27 --selectivity 0.01" "-n 2^27 --selectivity 0.99" "-n 2^27 --op unique --selectivity 0.5" "-n 2^27 --op partition --selectivity 0.5"; do
    echo -n "without u64 $args: "; row --type u64 $args
    echo -n "with    u64 $args: "; SCANKIT_COMPACT_PREFETCH8=1 row --type u64 $args
  done
  echo -n "without f64 2^27 0.5: "; row --type f64 -n 2^27 --selectivity 0.5
  echo -n "with    f64 2^27 0.5: "; SCANKIT_COMPACT_PREFETCH8=1 row --type f64 -n 2^27 --selectivity 0.5
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
