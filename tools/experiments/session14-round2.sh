#!/usr/bin/env bash
# Session 14, round 2: where the segmented tile pays. Its tests again (flag words, 3 blocks per
# SM for flags and run starts), compute-sanitizer on those two kernels, and size sweeps
# 2^20..2^28 with every tile and CUB in one process: select_if at 1% and 99%, partition,
# unique and select_flagged at 50%, uint64 select_if at 50%.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session14-round2.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*TileSizes*:*ManyTilesPerBlock*:*Misaligned*' 2>&1 | tail -n 3
for tool in memcheck racecheck synccheck; do
  for op in unique select_flagged; do
    echo -n "$tool $op: "; timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench compact -n 1048653 --op $op --selectivity 0.5 --algo single-pass --tile segmented --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY|RACECHECK SUMMARY" | tr -s ' ' | tr '\n' ' '; echo
  done
done
sweep() { local name=$1 top=$2; shift 2; echo "=== sweep $name ($(date -u +%H:%M:%S))"
  timeout 120 $S sweep compact --min-log 20 --max-log $top --algo single-pass --tile all --compare cub --reps 5 --seed 1 --no-plot --out $OUT/sweep-$name "$@" 2>&1 | tail -n 1; rm -f $OUT/sweep-$name.json; }
sweep p01 28 --selectivity 0.01
sweep p99 28 --selectivity 0.99
sweep partition 28 --op partition --selectivity 0.5
sweep unique 28 --op unique --selectivity 0.5
sweep flagged 28 --op select_flagged --selectivity 0.5
sweep u64 27 --type u64 --selectivity 0.5
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
