#!/usr/bin/env bash
# Session 22, round 5: the library changes on the GPU.
# (a) The library alone against CUB in eighth steps of the exponent (session22_scan_window.cu
#     mode 6), the code before the changes (session22_scan_window_base, built at round 4) and
#     after, alternating processes: int32 and float at 2^10-2^16 (the striped tile's partial
#     last tile now loads whole vectors), int64 and double at 2^18-2^22 (one tile per SM, the
#     load window).
# (b) test_cuda_scan: the decoupled-lookback suite in full, the new one-wave test with the load
#     window at 1 and 3 tiles (every tile waits), and the large-size tests with the blocked tile
#     instead of the warp-specialized one (the window in launches of several waves).
# (c) compute-sanitizer on the new test (quick mode).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session22-round5.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for pass in 1 2; do
  for t in i32 f32; do
    for v in base new; do
      x=$B/session22_scan_window; [ $v = base ] && x=$B/session22_scan_window_base
      echo "=== library in eighth steps, $t, $v, pass $pass ($(date -u +%H:%M:%S))"
      timeout 100 $x $t 10 16 6
    done
  done
  for t in i64 f64; do
    for v in base new; do
      x=$B/session22_scan_window; [ $v = base ] && x=$B/session22_scan_window_base
      echo "=== library in eighth steps, $t, $v, pass $pass ($(date -u +%H:%M:%S))"
      timeout 100 $x $t 18 22 6
    done
  done
done
echo "=== test_cuda_scan, decoupled-lookback suite ($(date -u +%H:%M:%S))"
timeout 300 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*' 2>&1 | tail -n 3
for w in 1 3; do
  echo "=== one-wave test with SCANKIT_LOOKBACK_LOAD_WINDOW=$w ($(date -u +%H:%M:%S))"
  SCANKIT_LOOKBACK_LOAD_WINDOW=$w timeout 200 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*EightByteOneWaveSizes/decoupled_lookback' 2>&1 | tail -n 2
done
echo "=== large sizes with the blocked tile (SCANKIT_LOOKBACK_SPECIALIZED_FROM huge) ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=1000000000000 timeout 200 $B/test_cuda_scan --gtest_brief=1 \
  --gtest_filter='*SpecializedTileLargeSizes/decoupled_lookback:*EightByteOneWaveSizes/decoupled_lookback:*Stress*/decoupled_lookback' 2>&1 | tail -n 2
for tool in memcheck racecheck synccheck; do
  echo -n "=== $tool, one-wave test (quick): "
  SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 \
    --gtest_filter='*EightByteOneWaveSizes/decoupled_lookback' 2>&1 | tail -n 2 | tr '\n' ' '
  echo
done
echo "=== bench scan rows ($(date -u +%H:%M:%S))"
for a in "-n 2^20 --type i64" "-n 2^20 --type f64" "-n 1763488 --type i64" "-n 1246974 --type f64" "-n 2^28 --type i64" "-n 2^28 --type i32"; do
  timeout 60 $S bench scan $a --reps 20 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 2>&1 | grep -E "^(decoupled|cub|copy)|rror"
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
grep -E "^===|PASSED|FAILED|ERROR SUMMARY|rror" "$L" | head -60
