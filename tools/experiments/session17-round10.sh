#!/usr/bin/env bash
# Session 17, round 10: the CPU compaction target again (parallel select_if against std::copy_if
# and cpu::parallel_copy's bandwidth, 2^28 uint32, half selected, on the 16-core device host;
# session 2 had measured 70.0% once), three runs.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session17-round10.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
for i in 1 2 3; do
  timeout 100 $S bench compact -n 2^28 --selectivity 0.5 --algo cpu-parallel,std --compare none --reps 5 --seed $i 2>&1 | grep -E "^cpu copy|^cpu-parallel|^std"
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
