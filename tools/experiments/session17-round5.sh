#!/usr/bin/env bash
# Session 17, round 5: the library with the counts tree and four counting warps in the
# warp-specialized compaction tile (4- and 8-byte shapes 256 x 13 x 2, other shape 256 x 11 x 2).
# Tests (default, the tile at every size, the other shape at every size), compute-sanitizer,
# verify, bench rows against CUB and the copy, the shape A/B, every tile from 2^20 (thresholds),
# and a sweep of the default dispatch.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session17-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_compact single_pass, default"
timeout 100 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*single_pass*:-*MoreThan2Pow31*' 2>&1 | tail -n 3
echo "=== specialized at every size ($(date -u +%H:%M:%S))"
SCANKIT_COMPACT_SPECIALIZED_FROM=0 timeout 100 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*single_pass*:-*MoreThan2Pow31*' 2>&1 | tail -n 3
echo "=== shape 1 at every size ($(date -u +%H:%M:%S))"
SCANKIT_COMPACT_SPECIALIZED_SHAPE=1 SCANKIT_COMPACT_SPECIALIZED_FROM=0 timeout 100 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*single_pass*:-*MoreThan2Pow31*' 2>&1 | tail -n 3
echo "=== sanitizers ($(date -u +%H:%M:%S))"
for tool in memcheck racecheck synccheck; do
  for a in "--op select_if" "--op partition" "--op unique" "--op partition --order reversed --type u64" "--op remove_if --type f32"; do
    echo -n "$tool $a: "; timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench compact -n 1048653 $a --selectivity 0.5 --algo single-pass --tile specialized --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY|RACECHECK SUMMARY" | tr -s ' ' | tr '\n' ' '; echo
  done
done
echo "=== verify ($(date -u +%H:%M:%S))"
timeout 60 $S verify compact --cases 100 --seed 1717 2>&1 | tail -n 1
echo "=== bench, default dispatch ($(date -u +%H:%M:%S))"
row() { timeout 60 $S bench compact "$@" --algo single-pass --compare cub,copy --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub|^copy " | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for n in 2^28 2^30; do for p in 0.01 0.5 0.99; do echo -n "select_if $n $p: "; row -n $n --selectivity $p; done; done
for op in partition unique remove_if; do echo -n "$op 2^28: "; row -n 2^28 --op $op; done
for p in 0.01 0.5 0.99; do echo -n "select_if u64 2^27 $p: "; row -n 2^27 --type u64 --selectivity $p; done
echo -n "select_if f64 2^27 0.5: "; row -n 2^27 --type f64 --selectivity 0.5
echo -n "unique u64 2^27: "; row -n 2^27 --type u64 --op unique
echo -n "partition u64 2^27: "; row -n 2^27 --type u64 --op partition
echo -n "default bench: "; row
echo "=== shape 1 ($(date -u +%H:%M:%S))"
for a in "-n 2^28 --selectivity 0.01" "-n 2^28 --selectivity 0.5" "-n 2^28 --selectivity 0.99" "-n 2^28 --op partition" "-n 2^28 --op unique" "-n 2^27 --type u64 --selectivity 0.01" "-n 2^27 --type u64 --selectivity 0.5" "-n 2^27 --type u64 --selectivity 0.99"; do
  echo -n "shape 1 $a: "; SCANKIT_COMPACT_SPECIALIZED_SHAPE=1 row $a
done
echo "=== every tile ($(date -u +%H:%M:%S))"
rowall() { timeout 60 $S bench compact "$@" --algo single-pass --tile all --compare cub --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub" | tr -s ' ' | cut -d' ' -f1-6 | tr '\n' '|'; echo; }
for n in 2^20 2^21 2^22 2^23 2^24 2^25 2^26 2^27; do echo -n "u32 $n 0.5: "; rowall -n $n --selectivity 0.5; done
for n in 2^19 2^20 2^21 2^22 2^23 2^24; do echo -n "u64 $n 0.5: "; rowall -n $n --type u64 --selectivity 0.5; done
for n in 2^22 2^24 2^26; do for p in 0.01 0.99; do echo -n "u32 $n $p: "; rowall -n $n --selectivity $p; done; done
echo "=== sweep, default dispatch ($(date -u +%H:%M:%S))"
cd $OUT && timeout 200 $S sweep compact --selectivity 0.5 --algo single-pass --compare cub --device-only --reps 9 --seed 1 --min-log 10 --max-log 28 --no-plot --out $OUT/s17-sweep-u32 2>&1 | grep -E "single-pass|cub" | tr -s ' ' | cut -d' ' -f1-9 | head -60
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L" | cut -c1-330
