#!/usr/bin/env bash
# Session 8, GPU round 12: sort benchmarks with the early-staged onesweep tiles, CUB in the same
# process: every key type at 2^28, uint32 keys by size, pairs (4- and 8-byte values), the size
# sweep.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session8-round12.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
X="--algo onesweep,cub --reps 7 --seed 1"
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for t in u32 i32 f32 u64 i64 f64 u16 u8; do step "bench sort $t 2^28"; timeout 60 $S bench sort -n 2^28 --type $t $X 2>&1 | grep -E "onesweep|^cub"; done
for n in 2^12 2^16 2^20 2^24 2^30; do step "bench sort u32 $n"; timeout 60 $S bench sort -n $n --type u32 $X 2>&1 | grep -E "onesweep|^cub"; done
step "bench sort u32 pairs (4-byte values) 2^28"; timeout 60 $S bench sort -n 2^28 --type u32 --pairs $X --json $OUT/bench-sort-pairs.json 2>&1 | grep -E "onesweep|^cub|value"
step "bench sort u64 2^24"; timeout 60 $S bench sort -n 2^24 --type u64 $X 2>&1 | grep -E "onesweep|^cub"
step "sweep sort"; timeout 150 $S sweep sort --max-log 28 --reps 3 --out $OUT/sweep-sort 2>&1 | tail -n 2
step end
} > "$L" 2>&1
tail -c 9000 "$L"
