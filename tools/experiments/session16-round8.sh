#!/usr/bin/env bash
# Session 16, round 8 (on the machine still warm after round 7): racecheck's full report of the
# warnings round 7 saw for partition with the warp-specialized tile.
[ -x .devbundle/bin/scankit ] || tar -C .devbundle -xJf .devbundle/bin.tar.xz; B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; timeout 60 compute-sanitizer --tool racecheck --print-level info $B/scankit bench compact -n 1048653 --op partition --selectivity 0.5 --algo single-pass --tile specialized --compare none --device-only --reps 1 --seed 3 2>&1 | grep -vE "^scankit|^predicate|^single|^algorithm|^---" | sed -E 's/void scankit[^)]*\)\+/+/g; s/\(const T5[^)]*\)//g' | cut -c1-260 | head -30 > $OUT/racecheck-warning.txt; cat $OUT/racecheck-warning.txt
