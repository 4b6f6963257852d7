#!/usr/bin/env bash
# Session 22, round 16: test_cuda_scan after the determinism checks became one helper
# (expect_bitwise_same_runs): both tests that use it, for every algorithm.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session22-round16.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*Deterministic*:*EightByteOneWaveSizes*' 2>&1 | tail -n 3
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
