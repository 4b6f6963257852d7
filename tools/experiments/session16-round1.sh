#!/usr/bin/env bash
# Session 16, round 1: the warp-specialized compaction tile (a producer warp bulk-loads tiles
# and counts them; the consumers look back, stage in place and write). Its tests (tile sizes,
# many tiles, and the whole suite with the tile wherever it applies), compute-sanitizer on it
# through the CLI, then bench rows with every tile, CUB and the copy in one process.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session16-round1.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*TileSizes*:*ManyTilesPerBlock*' 2>&1 | tail -n 6
echo "=== suite with the specialized tile from 0 bytes ($(date -u +%H:%M:%S))"
SCANKIT_COMPACT_SPECIALIZED_FROM=0 timeout 150 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*single_pass*:-*MoreThan2Pow31*' 2>&1 | tail -n 6
echo "=== sanitizers ($(date -u +%H:%M:%S))"
for tool in memcheck racecheck synccheck; do
  for op in select_if partition unique; do
    echo -n "$tool $op: "; timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench compact -n 1048653 --op $op --selectivity 0.5 --algo single-pass --tile specialized --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY|RACECHECK SUMMARY" | tr -s ' ' | tr '\n' ' '; echo
  done
done
echo -n "memcheck partition u64 reversed: "; timeout 40 compute-sanitizer --tool memcheck --error-exitcode 1 $S bench compact -n 1048653 --type u64 --op partition --order reversed --selectivity 0.5 --algo single-pass --tile specialized --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY" | tr -s ' ' | tr '\n' ' '; echo
echo "=== bench, every tile ($(date -u +%H:%M:%S))"
row() { timeout 90 $S bench compact "$@" --algo single-pass --tile all --compare cub,copy --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub|^copy " | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for n in 2^28 2^30; do for p in 0.01 0.5 0.99; do
  echo -n "select_if $n $p: "; row -n $n --selectivity $p
done; done
for op in partition unique remove_if; do echo -n "$op 2^28 0.5: "; row -n 2^28 --op $op --selectivity 0.5; done
for p in 0.01 0.5 0.99; do echo -n "select_if u64 2^27 $p: "; row -n 2^27 --type u64 --selectivity $p; done
echo -n "unique u64 2^27: "; row -n 2^27 --type u64 --op unique
for n in 2^22 2^24 2^26; do echo -n "select_if $n 0.5: "; row -n $n --selectivity 0.5; done
echo -n "default bench: "; row
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L" | cut -c1-400
