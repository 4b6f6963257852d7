#!/usr/bin/env bash
# Session 10, round 11: racecheck (and synccheck) on small onesweep sorts through the CLI
# (the test-suite subsets ran past their limits under racecheck in rounds 7, 9 and 10).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session10-round11.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for tool in racecheck synccheck; do
  for a in "u32 2^16" "u32 2^20" "f32 2^20" "u64 2^18" "u16 2^20" "u8 2^20"; do set -- $a
    echo "-- $tool $1 n=$2 ($(date -u +%H:%M:%S))"
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 $S bench sort -n $2 --type $1 --algo onesweep --reps 1 --seed 3 2>&1 | grep -E "^onesweep|ERROR SUMMARY|RACECHECK SUMMARY|Error|hazard" | head -n 4
  done
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
