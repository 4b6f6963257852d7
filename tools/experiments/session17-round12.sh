#!/usr/bin/env bash
# Session 17, round 12: the CPU parallel compaction's staging copy with AVX-512 compress
# (session17_cpu_compact before and after, then `bench compact` CPU rows three times), on the
# 16-core device host.
set -uo pipefail
mkdir -p .devbundle/y && tar -C .devbundle/y -xJf .devbundle/r12.tar.xz
B=$PWD/.devbundle/y/bin; export LD_LIBRARY_PATH=$B
{
echo "=== $(date -u +%H:%M:%S), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo), avx512bw: $(grep -m1 -c avx512bw /proc/cpuinfo)"
echo "--- before"; timeout 100 $B/session17_cpu_compact_before
echo "--- after"; timeout 100 $B/session17_cpu_compact
for i in 1 2 3; do
  timeout 100 $B/scankit bench compact -n 2^28 --selectivity 0.5 --algo cpu-parallel,std --compare none --reps 5 --seed $i 2>&1 | grep -E "^cpu copy|^cpu-parallel|^std"
done
for op in partition unique; do
  timeout 100 $B/scankit bench compact -n 2^28 --op $op --algo cpu-parallel,std --compare none --reps 5 --seed 1 2>&1 | grep -E "^cpu copy|^cpu-parallel|^std"
done
timeout 100 $B/scankit bench compact -n 2^27 --type u64 --selectivity 0.5 --algo cpu-parallel,std --compare none --reps 5 --seed 1 2>&1 | grep -E "^cpu copy|^cpu-parallel|^std"
echo "=== end $(date -u +%H:%M:%S)"
} > $OUT/session17-round12.log 2>&1
cat $OUT/session17-round12.log
