#!/usr/bin/env bash
# Session 6, GPU round 4 (and 10, with the raking block scan): the look-back scan's size sweeps (int32 sum, int32 max, int64 sum;
# CUB and the copy in the same process) and compute-sanitizer on the scan tests.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
export SCANKIT_PYTHON=python3 SCANKIT_PLOT_SCRIPT=$PWD/tools/plot_sweep.py
L=$OUT/round10.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "sweep scan i32 sum"; timeout 150 $S sweep scan --over size --reps 7 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 --out $OUT/sweep 2>&1 | tail -n 26
step "sweep scan i32 max"; timeout 100 $S sweep scan --over size --op max --min-log 14 --reps 7 --algo decoupled-lookback --compare cub --device-only --seed 1 --no-plot --out $OUT/sweep-max 2>&1 | tail -n 22
step "sweep scan i64 sum"; timeout 100 $S sweep scan --over size --type i64 --min-log 14 --max-log 29 --reps 5 --algo decoupled-lookback --compare cub --device-only --seed 1 --no-plot --out $OUT/sweep-i64 2>&1 | tail -n 22
} > "$L" 2>&1
cat "$L"
SCANKIT_ONLY=scan SCANKIT_SANITIZE_SECONDS=300 OUT=$OUT tools/gpu-check sanitize > /dev/null 2>&1
grep -E "===|ERROR SUMMARY|RACECHECK SUMMARY|exit|passed|failed|PASSED|FAILED" $OUT/gpu-check-sanitize.log
