#!/usr/bin/env bash
# Session 14, round 1: the segmented compaction tile (each warp compacts its own contiguous
# segment of 12 vectors per lane). Its tests (tile sizes, many tiles, every op and type),
# compute-sanitizer on it through the CLI, verify, then bench rows with every tile and CUB in
# one process (2^28 and 2^30, 1/50/99%, partition, unique, uint64), and a first-delay A/B.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session14-round1.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*TileSizes*:*ManyTilesPerBlock*' 2>&1 | tail -n 4
echo "=== sanitizers ($(date -u +%H:%M:%S))"
for tool in memcheck racecheck synccheck; do
  for op in select_if partition unique select_flagged; do
    echo -n "$tool $op: "; timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench compact -n 1048653 --op $op --selectivity 0.5 --algo single-pass --tile segmented --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY|RACECHECK SUMMARY" | tr -s ' ' | tr '\n' ' '; echo
  done
done
echo "=== bench, every tile ($(date -u +%H:%M:%S))"
row() { timeout 90 $S bench compact "$@" --algo single-pass --tile all --compare cub,copy --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub|^copy" | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for n in 2^28 2^30; do for p in 0.01 0.5 0.99; do
  echo -n "select_if $n $p: "; row -n $n --selectivity $p
done; done
for op in partition unique remove_if select_flagged; do echo -n "$op 2^28 0.5: "; row -n 2^28 --op $op --selectivity 0.5; done
echo -n "select_if u64 2^27 0.5: "; row -n 2^27 --type u64 --selectivity 0.5
echo -n "select_if 2^24 0.5: "; row -n 2^24 --selectivity 0.5
echo -n "default bench: "; row
echo "=== first delay A/B, segmented, 2^28 0.5 ($(date -u +%H:%M:%S))"
for d in 0 500 1000 0 500 1000; do echo -n "delay $d: "; SCANKIT_COMPACT_FIRST_DELAY=$d row -n 2^28 --selectivity 0.5; done
echo "=== sweep 2^18..2^30, 50% ($(date -u +%H:%M:%S))"
timeout 200 $S sweep compact --min-log 18 --max-log 30 --selectivity 0.5 --algo single-pass --tile all --compare cub --reps 5 --seed 1 --no-plot --out $OUT/sweep-p50 2>&1 | tail -n 40
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
