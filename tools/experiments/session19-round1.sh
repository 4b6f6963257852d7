#!/usr/bin/env bash
# Session 19, round 1: session 18's prepared rounds 11 (the trace of the 128 x 11 x 3
# warp-specialized tile, 2^28 int32 and int64) and 12 (one, two and four producer warps per
# block, session18_scan_ahead.cu mode "producers"), plus the 8-byte mid sizes with the
# two-pass reduce-then-scan next to decoupled-lookback (at 2^20 the 8 MiB input fits in L2, so
# a second read of it may be cheap).
set -uo pipefail
mkdir -p .devbundle/x && for b in bin s18p s18t; do tar -C .devbundle/x -xJf .devbundle/$b.tar.xz; done
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session19-round1.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== trace"
timeout 40 .devbundle/x/s18t/session17_scan_trace 28 i32
timeout 40 .devbundle/x/s18t/session17_scan_trace 28 i64
echo "=== producers ($(date -u +%H:%M:%S))"
X=.devbundle/x/s18p/session18_scan_ahead
timeout 120 $X i32 26 30 producers
timeout 100 $X f32 28 30 producers
timeout 100 $X i64 26 28 producers
timeout 60 $X f64 28 28 producers
echo "=== 8-byte mid sizes ($(date -u +%H:%M:%S))"
for t in i64 f64; do for n in 741455 1048576 1482910; do
  timeout 60 $B/scankit bench scan -n $n --type $t --reps 41 --algo decoupled-lookback,reduce-then-scan --compare cub,copy --device-only --seed 1 | grep -E "decoupled|reduce|cub|copy"
done; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
tail -c 6000 "$L"
