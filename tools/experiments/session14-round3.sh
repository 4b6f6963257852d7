#!/usr/bin/env bash
# Session 14, round 3: the final compaction (automatic takes the segmented tile from 512 MiB of
# 4-byte items, 16 MiB for select_flagged, 128 MiB of 8-byte items). test_cuda_compact in full,
# verify, bench rows with the default tile against CUB and the copy, and two A/Bs on the
# segmented tile at 2^28 (the guess prefetch off, a first look-back delay).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session14-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
timeout 90 $S verify compact --cases 100 --seed 1414 2>&1 | tail -n 1
echo "=== bench, default tile ($(date -u +%H:%M:%S))"
row() { timeout 90 $S bench compact "$@" --algo single-pass --compare cub,copy --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub|^copy" | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for n in 2^28 2^30; do for p in 0.01 0.5 0.99; do echo -n "select_if $n $p: "; row -n $n --selectivity $p; done; done
for op in partition unique remove_if select_flagged; do echo -n "$op 2^28 0.5: "; row -n 2^28 --op $op --selectivity 0.5; done
echo -n "partition original 2^28 0.5: "; row -n 2^28 --op partition --order original --selectivity 0.5
echo -n "select_flagged 2^24 0.5: "; row -n 2^24 --op select_flagged --selectivity 0.5
echo -n "select_if u64 2^27 0.5: "; row -n 2^27 --type u64 --selectivity 0.5
echo -n "select_if f32 2^28 0.5: "; row -n 2^28 --type f32 --selectivity 0.5
echo -n "default bench: "; row
echo "=== A/B on the segmented tile, 2^28 ($(date -u +%H:%M:%S))"
for k in 1 2; do for p in 0.01 0.5; do
  echo -n "as is $p: "; row -n 2^28 --selectivity $p
  echo -n "prefetch off $p: "; SCANKIT_COMPACT_PREFETCH_FROM=off row -n 2^28 --selectivity $p
  echo -n "first delay 1000 $p: "; SCANKIT_COMPACT_FIRST_DELAY=1000 row -n 2^28 --selectivity $p
done; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
