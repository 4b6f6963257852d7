#!/usr/bin/env bash
# Session 16, round 7 (final): the warp-specialized compaction tile with its chosen shapes
# (4-byte 256 x 11 x 2, 8-byte 256 x 13 x 2) and thresholds. Tests (default, the tile at every
# size, the other shape at every size), compute-sanitizer through the CLI, verify, bench rows of
# the default dispatch against CUB and the copy, the shape A/B, and rows with every tile near the
# thresholds.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session16-round7.log
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
timeout 60 $S verify compact --cases 100 --seed 1616 2>&1 | tail -n 1
echo "=== bench, default dispatch ($(date -u +%H:%M:%S))"
row() { timeout 60 $S bench compact "$@" --algo single-pass --compare cub,copy --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub|^copy " | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for n in 2^28 2^30; do for p in 0.01 0.5 0.99; do echo -n "select_if $n $p: "; row -n $n --selectivity $p; done; done
for op in partition unique remove_if; do echo -n "$op 2^28: "; row -n 2^28 --op $op; done
for p in 0.01 0.5 0.99; do echo -n "select_if u64 2^27 $p: "; row -n 2^27 --type u64 --selectivity $p; done
echo -n "select_if f64 2^27 0.5: "; row -n 2^27 --type f64 --selectivity 0.5
echo -n "unique u64 2^27: "; row -n 2^27 --type u64 --op unique
echo -n "default bench: "; row
echo "=== shape 1 ($(date -u +%H:%M:%S))"
for a in "-n 2^28 --selectivity 0.01" "-n 2^28 --selectivity 0.5" "-n 2^28 --selectivity 0.99" "-n 2^27 --type u64 --selectivity 0.5"; do
  echo -n "shape 1 $a: "; SCANKIT_COMPACT_SPECIALIZED_SHAPE=1 row $a
done
echo "=== every tile near the thresholds ($(date -u +%H:%M:%S))"
rowall() { timeout 60 $S bench compact "$@" --algo single-pass --tile all --compare cub --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub" | tr -s ' ' | cut -d' ' -f1-6 | tr '\n' '|'; echo; }
for n in 2^24 2^25 2^26 2^27; do echo -n "u32 $n 0.5: "; rowall -n $n --selectivity 0.5; done
for n in 2^22 2^23 2^24; do echo -n "u64 $n 0.5: "; rowall -n $n --type u64 --selectivity 0.5; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L" | cut -c1-330
