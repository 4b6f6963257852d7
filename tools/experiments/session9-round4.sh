#!/usr/bin/env bash
# Session 9, GPU round 4: the look-back scan, compaction and sort clear their look-back words
# with a kernel (not a memset) and launch their main kernel as its programmatic dependent.
# Every CUDA test program in full, sanitizers on the scan and compaction quick suites, then
# size sweeps against CUB (scan int32 / int64 / double, select_if, sort uint32 / uint64).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session9-round4.log
cols() {  # cols CSV COLUMN...: the named columns of a CSV, space-separated
  python3 - "$@" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    print(" ".join(r.get(c, "?") for c in sys.argv[2:]))
PY
}
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 420 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
(for t in scan compact histogram; do timeout 300 $B/test_cuda_$t --gtest_brief=1 > /tmp/$t.txt 2>&1; echo "[$t exit $?]" >> /tmp/$t.txt; done) &
wait
for i in 0 1; do echo "=== test_cuda_sort shard $i"; tail -n 4 /tmp/shard$i.txt; done
for t in scan compact histogram; do echo "=== test_cuda_$t"; tail -n 4 /tmp/$t.txt; done
echo "=== sanitizers ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool synccheck --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*EveryTypeAndOperator*:*NonCommutativeAffine*' 2>&1 | tail -n 2
SCANKIT_TEST_QUICK=1 timeout 90 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*NonCommutativeAffine*:*ZeroLength*' 2>&1 | tail -n 2
echo "=== scan sweeps: n, algorithm, device ms, vs CUB ($(date -u +%H:%M:%S))"
for t in i32 i64 f64; do echo "-- $t sum"; timeout 120 $S sweep scan --type $t --min-log 10 --max-log 26 --algo decoupled-lookback --compare cub --device-only --reps 9 --seed 1 --no-plot --out /tmp/scan-$t > /tmp/scan-$t.txt 2>&1 || tail -n 3 /tmp/scan-$t.txt; cols /tmp/scan-$t.csv n algorithm device_ms vs_cub | grep -v "^.* cub "; done
echo "=== select_if sweep (50%) ($(date -u +%H:%M:%S))"
timeout 120 $S sweep compact --min-log 10 --max-log 26 --selectivity 0.5 --algo single-pass --compare cub --device-only --reps 9 --seed 1 --no-plot --out /tmp/compact > /tmp/compact.txt 2>&1 || tail -n 3 /tmp/compact.txt
head -n 1 /tmp/compact.csv; grep -v ",cub," /tmp/compact.csv | grep single-pass | cut -d, -f1-12
echo "=== sort sweeps: n, onesweep ms, CUB ms, vs CUB ($(date -u +%H:%M:%S))"
X="--algo onesweep,cub --reps 9 --seed 1 --no-plot"
for t in u32 u64; do echo "-- $t"; timeout 90 $S sweep sort --type $t --min-log 10 --max-log 24 $X --out /tmp/sort-$t 2>&1 | grep -E "onesweep|cub" | paste - - | awk '{print $1, $3, $9, $5, $6}'; done
echo "=== bench ($(date -u +%H:%M:%S))"
$S bench scan -n 2^28 --type i32 --reps 9 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^decoupled|^cub|^copy"
$S bench scan -n 2^28 --type i64 --reps 9 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^decoupled|^cub|^copy"
$S bench sort -n 2^28 --type u32 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"
echo "-- pairs (8-byte values, and 8-byte keys with 4-byte values, staged early at 384 x 16)"
for t in u32 f32; do $S bench sort -n 2^28 --type $t --pairs --value-bytes 8 --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
for t in u64 f64; do $S bench sort -n 2^27 --type $t --pairs --algo onesweep,cub --reps 7 --seed 1 2>&1 | grep -E "^onesweep|^cub"; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
