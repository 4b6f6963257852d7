#!/usr/bin/env bash
# Session 22, round 17: test_cuda_scan after the random-size stress loops became one helper
# (stress_random_sizes): both tests that use it, and the determinism tests, for every algorithm.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session22-round17.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*Deterministic*:*EightByteOneWaveSizes*:*StressRandomSizes*' 2>&1 | tail -n 3
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
