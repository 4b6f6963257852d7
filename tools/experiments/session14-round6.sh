#!/usr/bin/env bash
# Session 14, round 6: the final compaction (segmented tile with the guess prefetch for 8-byte
# items too). test_cuda_compact in full, its tile tests with the prefetch at every size, verify,
# and default-tile bench rows against CUB and the copy.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session14-round6.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 2
echo -n "prefetch at every size: "; SCANKIT_COMPACT_PREFETCH_FROM=0 timeout 120 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*TileSizes*:*ManyTilesPerBlock*' 2>&1 | tail -n 1
timeout 90 $S verify compact --cases 100 --seed 1415 2>&1 | tail -n 1
echo -n "synccheck u64 select_if prefetch: "; SCANKIT_COMPACT_PREFETCH_FROM=0 timeout 40 compute-sanitizer --tool synccheck --error-exitcode 1 $S bench compact -n 1048653 --type u64 --selectivity 0.5 --algo single-pass --tile segmented --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "ERROR SUMMARY"
row() { timeout 90 $S bench compact "$@" --algo single-pass --compare cub,copy --device-only --reps 9 --seed 1 2>&1 | grep -E "^single-pass|^cub|^copy" | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for t in u64 f64; do for p in 0.01 0.5 0.99; do echo -n "select_if $t 2^27 $p: "; row --type $t -n 2^27 --selectivity $p; done; done
for op in partition unique; do echo -n "$op u64 2^27 0.5: "; row --type u64 -n 2^27 --op $op --selectivity 0.5; done
echo -n "select_if u32 2^28 0.5: "; row -n 2^28 --selectivity 0.5
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
