#!/usr/bin/env bash
# Session 17, round 6: racecheck's report for the warp-specialized compaction tile with four
# counting warps (round 5 counted 2 hazards per run), with the hazards printed.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
timeout 120 compute-sanitizer --tool racecheck --racecheck-report all --print-limit 20 $B/scankit bench compact -n 1048653 --op select_if --selectivity 0.5 --algo single-pass --tile specialized --compare none --device-only --reps 1 --seed 3 2>&1 | grep -v "^=========     Host Frame\|^=========         in \|^========= *$" | head -80 | cut -c1-400 | tee $OUT/session17-round6-racecheck.txt
