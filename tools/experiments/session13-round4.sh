#!/usr/bin/env bash
# Session 13, round 4: the single-pass compaction's guess prefetch (thread 0 asks L2 for tile
# blockIdx.x while the tile id's atomic is in flight) over sizes: sweeps with it always
# (SCANKIT_COMPACT_PREFETCH_FROM=0) and never (off), alternating, CUB in each; A/B of the other
# operations at 2^28; the compaction suite in full and under memcheck/racecheck with it always.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session13-round4.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for p in 0.5 0.01 0.99; do
  for m in off 0; do
    echo "-- sweep select_if p=$p prefetch-from=$m ($(date -u +%H:%M:%S))"
    SCANKIT_COMPACT_PREFETCH_FROM=$m timeout 100 $S sweep compact --selectivity $p --algo single-pass --compare cub --device-only --reps 9 --seed 1 --min-log 20 --max-log 30 --out /tmp/sw-$p-$m --no-plot > /dev/null 2>&1
    awk -F, '$5 ~ /single-pass/ {printf "2^%s %.3f (%s ms)\n", $2, $12, $8}' /tmp/sw-$p-$m.csv | paste -sd' '
  done
done
CO="^single-pass|^CUB|^cub"
for op in partition unique remove_if nonzero; do
  for i in 1 2; do for m in off 0; do
    echo -n "$op 2^28 prefetch-from=$m: "; SCANKIT_COMPACT_PREFETCH_FROM=$m timeout 60 $S bench compact -n 2^28 --op $op --selectivity 0.5 --algo single-pass --compare cub --device-only --reps 9 --seed 1 2>&1 | grep -E "$CO" | tr -s ' ' | tr '\n' ' '; echo
  done; done
done
for i in 1 2; do for m in off 0; do
  echo -n "select_if u64 2^28 prefetch-from=$m: "; SCANKIT_COMPACT_PREFETCH_FROM=$m timeout 60 $S bench compact -n 2^28 --type u64 --selectivity 0.5 --algo single-pass --compare cub --device-only --reps 9 --seed 1 2>&1 | grep -E "$CO" | tr -s ' ' | tr '\n' ' '; echo
done; done
echo "=== tests, prefetch always ($(date -u +%H:%M:%S))"
SCANKIT_COMPACT_PREFETCH_FROM=0 timeout 100 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
SCANKIT_COMPACT_PREFETCH_FROM=0 SCANKIT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 2
for tool in racecheck synccheck; do
  SCANKIT_COMPACT_PREFETCH_FROM=0 timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench compact -n 2^22 --selectivity 0.5 --algo single-pass --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY|RACECHECK SUMMARY" | head -n 2
done
SCANKIT_COMPACT_PREFETCH_FROM=0 timeout 60 $S verify compact --cases 100 --seed 1313 2>&1 | tail -n 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
