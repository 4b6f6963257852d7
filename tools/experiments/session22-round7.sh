#!/usr/bin/env bash
# Session 22, round 7: the final scan code (one tile per SM up to 768 threads, the 256-tile load
# window, whole vectors in the striped tile's partial last tile) against CUB:
# (a) the library alone in eighth steps of the exponent, 2^10-2^26, int32, float, int64, double,
#     two passes (session22_scan_window.cu mode 6, 41 runs per row, two rows per process);
# (b) scankit sweep scan at powers of two: 41 runs from 2^10 to 2^24, 7 runs from 2^24 to 2^30;
# (c) bench scan rows at the target sizes.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session22-round7.log
mkdir -p $OUT/sw
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for pass in 1 2; do
  for t in i32 f32 i64 f64; do
    echo "=== library in eighth steps, $t, new, pass $pass ($(date -u +%H:%M:%S))"
    timeout 100 $B/session22_scan_window $t 10 26 6
  done
done
sw() { timeout 150 $S sweep scan --over size --algo decoupled-lookback --compare cub,copy --device-only --seed 3 --no-plot "$@" 2>&1 | grep -vE "^\s*$" | tail -n 30; }
for t in i32 f32 i64 f64; do
  echo "=== sweep $t 2^10-2^24, 41 runs ($(date -u +%H:%M:%S))"
  sw --type $t --min-log 10 --max-log 24 --reps 41 --out $OUT/sw/s22-sweep-$t-small
done
for t in i32 i64; do
  echo "=== sweep $t 2^24-2^30, 7 runs ($(date -u +%H:%M:%S))"
  sw --type $t --min-log 24 --max-log 30 --reps 7 --out $OUT/sw/s22-sweep-$t-large
done
echo "=== bench scan rows ($(date -u +%H:%M:%S))"
for a in "-n 2^28 --type i32" "-n 2^30 --type i32" "-n 2^28 --type u32" "-n 2^28 --type f32" "-n 2^28 --type i64" "-n 2^28 --type f64" \
         "-n 2^20 --type i64" "-n 2^20 --type f64" "-n 1246974 --type f64" "-n 1763488 --type i64" "-n 2^24 --type i32 --op max"; do
  echo "-- $a"; timeout 90 $S bench scan $a --reps 20 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled-lookback|cub|copy) |rror"
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
tar -C $OUT -czf $OUT/s22-sweeps.tar.gz sw && rm -rf $OUT/sw
grep -E "^===" "$L"
