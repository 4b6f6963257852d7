#!/usr/bin/env bash
# Session 22, round 14: what round 13's sanitizer call had no time left for: racecheck and
# synccheck on the one-wave test with a 3-tile load window, racecheck on the warp-specialized
# tile at small sizes (quick mode), and racecheck on the one-launch path's sizes.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; T=$B/test_cuda_scan
L=$OUT/session22-round14.log
san() { local tool=$1 filter=$2; shift 2
  echo "=== $tool $filter $* ($(date -u +%H:%M:%S))"
  env "$@" SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 $T --gtest_brief=1 --gtest_filter="$filter" 2>&1 | tail -n 2
  echo "[exit ${PIPESTATUS[0]}]"; }
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
san racecheck '*EightByteOneWaveSizes/decoupled_lookback' SCANKIT_LOOKBACK_LOAD_WINDOW=3
san synccheck '*EightByteOneWaveSizes/decoupled_lookback' SCANKIT_LOOKBACK_LOAD_WINDOW=3
san racecheck '*ZeroLength*/decoupled_lookback:*ManagedWorkspace*/decoupled_lookback:*NonCommutativeAffine/decoupled_lookback' SCANKIT_LOOKBACK_SPECIALIZED_FROM=0
} > "$L" 2>&1
cat "$L"
