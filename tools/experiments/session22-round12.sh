#!/usr/bin/env bash
# Session 22, round 12: the one-launch path of 1,024 threads x 1-2 vectors (4- and 8-byte items).
# (a) tools/gpu-check tests for the scan; (b) the library against CUB in eighth steps at 2^10-2^16
# (mode 6, two passes) and scankit sweep scan at 2^10-2^16 (41 runs), int32, float, int64, double;
# (c) bench scan at 2^28 (int32, int64), unchanged paths, for the record.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session22-round12.log
SCANKIT_BUNDLE=.devbundle/x/bin SCANKIT_ONLY=scan timeout 300 tools/gpu-check tests > /dev/null 2>&1
mkdir -p $OUT/sw
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for pass in 1 2; do
  for t in i32 f32 i64 f64; do
    echo "=== library in eighth steps, $t, new, pass $pass ($(date -u +%H:%M:%S))"
    timeout 100 $B/session22_scan_window $t 10 16 6
  done
done
for t in i32 f32 i64 f64; do
  echo "=== sweep $t 2^10-2^16, 41 runs ($(date -u +%H:%M:%S))"
  timeout 100 $S sweep scan --over size --algo decoupled-lookback --compare cub,copy --device-only --seed 3 --no-plot \
    --type $t --min-log 10 --max-log 16 --reps 41 --out $OUT/sw/s22-sweep-$t-tiny 2>&1 | tail -n 1
done
for a in "-n 2^28 --type i32" "-n 2^28 --type i64" "-n 2000 --type i32" "-n 3000 --type i64"; do
  echo "-- $a"; timeout 90 $S bench scan $a --reps 20 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled-lookback|cub|copy) |rror"
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
tar -C $OUT -czf $OUT/s22-sweeps-tiny.tar.gz sw && rm -rf $OUT/sw
grep -E "^===|PASSED|FAILED|exit" $OUT/gpu-check-tests.log
