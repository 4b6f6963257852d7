#!/usr/bin/env bash
# Session 10, round 1: the CPU radix sort's phases on the 16-core host (session10_cpu_sort,
# as it was then: leaf sizes 8192/1024/256 KiB, no split).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B
L=$OUT/session10-round1.log
{
echo "=== host ($(date -u +%H:%M:%S))"; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core|Socket|L1d|L2|L3|NUMA node\(s\)"
cat /sys/kernel/mm/transparent_hugepage/enabled; grep -E "MemTotal|MemFree" /proc/meminfo
for lg in 27 26; do echo "=== 2^$lg ($(date -u +%H:%M:%S))"; timeout 150 $B/session10_cpu_sort $lg 5; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
