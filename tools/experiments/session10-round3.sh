#!/usr/bin/env bash
# Session 10, round 3: onesweep's histogram with replicated shared counters
# (session10_histogram); the CPU sort with a workspace kept across calls (bench cpu-radix) and
# its split buckets (session10_cpu_sort).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session10-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== histogram variants"; timeout 120 $B/session10_histogram 15
echo "=== CPU bench 2^27 ($(date -u +%H:%M:%S))"
timeout 200 $S bench sort -n 2^27 --algo cpu-radix,cpu-std-sort-par,cpu-tbb-sort --reps 5 --seed 1 2>&1 | grep -vE "^\s*$" | tail -n 14
echo "=== CPU phases 2^27 ($(date -u +%H:%M:%S))"; timeout 150 $B/session10_cpu_sort 27 5 | grep -v samples
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
