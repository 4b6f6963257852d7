#!/usr/bin/env bash
# Session 13, round 5: the final compaction (guess prefetch for 4-byte items from 2^29 bytes of
# input): the suite in full with it forced at every size, compute-sanitizer through the CLI
# with it forced, verify, and bench rows with the default rule against CUB.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session13-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
SCANKIT_COMPACT_PREFETCH_FROM=0 timeout 100 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 2
for tool in memcheck racecheck synccheck; do
  for op in select_if partition unique; do
    echo -n "$tool $op: "; SCANKIT_COMPACT_PREFETCH_FROM=0 timeout 40 compute-sanitizer --tool $tool --error-exitcode 1 $S bench compact -n 2^22 --op $op --selectivity 0.5 --algo single-pass --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^single|ERROR SUMMARY|RACECHECK SUMMARY" | tr -s ' ' | tr '\n' ' '; echo
  done
done
SCANKIT_COMPACT_PREFETCH_FROM=0 timeout 60 $S verify compact --cases 100 --seed 1313 2>&1 | tail -n 1
echo "=== bench, default rule ($(date -u +%H:%M:%S))"
for n in 2^28 2^30; do for p in 0.01 0.5 0.99; do
  echo -n "select_if $n $p: "; timeout 60 $S bench compact -n $n --selectivity $p --algo single-pass --compare cub,copy --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub" | tr -s ' ' | tr '\n' ' '; echo
done; done
echo -n "default bench (remove zeros, 123,123,123): "; timeout 60 $S bench compact --algo single-pass --compare cub --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub" | tr -s ' ' | tr '\n' ' '; echo
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
