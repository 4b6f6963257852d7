#!/usr/bin/env bash
# Session 11, round 9: `verify sort` failed in round 8 with "CUDA error in launch of
# radix::histogram_kernel: invalid argument" and no case named. The CLI now names every
# failing case (and carries on); the same seed again, then the GPU rows one at a time.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round9.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $S verify sort --seed 8479127006686242485 --algo gpu 2>&1 | tail -n 12
for a in onesweep lsd-reduce-then-scan split-1bit; do echo "-- $a"; timeout 150 $S verify sort --seed 8479127006686242485 --algo $a 2>&1 | grep -E "FAIL|passed" | head -n 6; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
