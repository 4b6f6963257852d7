#!/usr/bin/env bash
# Session 17, round 9: the sum tree in the warp-specialized scan tile (session17-scan-sum-tree.patch
# applied; not kept: int32 1.13x against 1.16x before; 4-byte integer sums:
# upper levels completed by atomic adds). Scan tests with the tile at every size, sanitizers,
# bench rows against CUB and the copy; and the compaction sweeps round 8 could not bring back
# (uint64 at 99%, unique), with the smallest uint64 sizes again at more runs.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session17-round9.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== test_cuda_scan decoupled-lookback, specialized tile at every size"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 150 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 3
echo "=== test_cuda_scan decoupled-lookback, default ($(date -u +%H:%M:%S))"
timeout 150 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*Int32SumLargeSizes*:*SpecializedTileLargeSizes/decoupled*:*MoreThan2Pow31Items/decoupled*' 2>&1 | tail -n 3
echo "=== sanitizers ($(date -u +%H:%M:%S))"
for tool in memcheck racecheck synccheck; do
  for t in i32 u32; do
    echo -n "$tool $t: "; SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $S bench scan -n 1048653 --type $t --algo decoupled-lookback --compare none --device-only --reps 1 --seed 3 2>&1 | grep -E "^decoupled|ERROR SUMMARY|RACECHECK SUMMARY" | tr -s ' ' | tr '\n' ' '; echo
  done
done
echo "=== bench scan ($(date -u +%H:%M:%S))"
row() { timeout 60 $S bench scan "$@" --algo decoupled-lookback --compare cub,copy --device-only --reps 10 --seed 1 2>&1 | grep -E "^decoupled|^cub|^copy " | tr -s ' ' | cut -d' ' -f1-8 | tr '\n' '|'; echo; }
for a in "-n 2^28 --type i32" "-n 2^30 --type i32" "-n 2^28 --type u32" "-n 2^30 --type u32" "-n 2^28 --type f32" "-n 2^28 --type i64" "-n 2^24 --type i32" "-n 2^26 --type i32" ""; do echo -n "scan $a: "; row $a; done
echo "=== compaction sweeps ($(date -u +%H:%M:%S))"
cd $OUT
sw() { timeout 100 $S sweep compact "$@" --algo single-pass --compare cub --device-only --seed 1 --no-plot > /dev/null 2>&1; rm -f "$OUT"/*.json; echo "$* done $(date -u +%H:%M:%S)"; }
sw --type u64 --selectivity 0.99 --min-log 10 --max-log 27 --reps 7 --out $OUT/s17-sweep-u64-0.99
sw --op unique --min-log 10 --max-log 28 --reps 7 --out $OUT/s17-sweep-unique-u32
sw --type u64 --selectivity 0.01 --min-log 10 --max-log 14 --reps 41 --out $OUT/s17-sweep-u64-0.01-small
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L" | cut -c1-300
