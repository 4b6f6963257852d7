#!/usr/bin/env bash
# Session 14, round 4 (the switch was removed after this round: not kept): smaller segmented tiles for middle sizes (experiment switch
# SCANKIT_COMPACT_SEGMENT_VECTORS: 8 vectors per lane at 4 blocks per SM, 6 at 6), 4-byte items
# selected by a predicate. Their tile-size tests and sanitizers, then sweeps 2^20..2^28 with
# every tile (the segmented row is the smaller one) and CUB in one process.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session14-round4.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for kv in 8 6; do
  echo -n "KV $kv tests: "; SCANKIT_COMPACT_SEGMENT_VECTORS=$kv timeout 100 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*TileSizes*:*ManyTilesPerBlock*' 2>&1 | tail -n 1
  for tool in memcheck racecheck; do for op in select_if partition; do
    echo -n "KV $kv $tool $op: "; SCANKIT_COMPACT_SEGMENT_VECTORS=$kv timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench compact -n 1048653 --op $op --selectivity 0.5 --algo single-pass --tile segmented --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY|RACECHECK SUMMARY" | tr -s ' ' | tr '\n' ' '; echo
  done; done
done
sweep() { local name=$1 kv=$2; shift 2; echo "=== sweep $name KV $kv ($(date -u +%H:%M:%S))"
  SCANKIT_COMPACT_SEGMENT_VECTORS=$kv timeout 120 $S sweep compact --min-log 20 --max-log 28 --algo single-pass --tile all --compare cub --reps 5 --seed 1 --no-plot --out $OUT/sweep-$name-kv$kv "$@" 2>&1 | tail -n 1; rm -f $OUT/sweep-$name-kv$kv.json; }
for kv in 8 6; do
  sweep p50 $kv --selectivity 0.5
  sweep p01 $kv --selectivity 0.01
  sweep partition $kv --op partition --selectivity 0.5
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
