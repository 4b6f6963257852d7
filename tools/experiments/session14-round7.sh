#!/usr/bin/env bash
# Session 14, round 7: does the segmented tile win wherever its tile count is about one wave of
# the 528 block slots (4 per SM x 132)? Every tile and CUB in one process at sizes between 2^21
# and 2^23 uint32 items (170 to 683 segmented tiles), select_if at 50% and 1%, unique, partition.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session14-round7.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
row() { timeout 60 $S bench compact "$@" --algo single-pass --tile all --compare cub --device-only --reps 15 --seed 1 2>&1 | grep -E "^single-pass|^cub" | tr -s ' ' | cut -d' ' -f1,3,6 | tr '\n' '|'; echo; }
for n in 2500000 3000000 3500000 4194304 5000000 5800000 6400000 7000000; do
  for args in "--selectivity 0.5" "--selectivity 0.01" "--op unique --selectivity 0.5" "--op partition --selectivity 0.5"; do
    echo -n "n=$n $args: "; row -n $n $args
  done
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
