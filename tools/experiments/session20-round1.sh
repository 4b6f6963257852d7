#!/usr/bin/env bash
# Session 20, round 1: (a) the cluster experiment (session20_scan_cluster.cu) for 8-byte items
# at 2^19-2^22, with the blocked tile's bound (no look-back) for scale; (b) test_cuda_scan in
# full (eb0fb5a's affine_mod<W> template had not run on the GPU) and its decoupled-lookback
# suite with the warp-specialized tile at every size; (c) sort pairs the session 19 sweeps left
# out: 16-byte values by size, 8-byte values above 2^28.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session20-round1.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== cluster experiment, int64 ($(date -u +%H:%M:%S))"
timeout 120 $B/session20_scan_cluster i64 19 22
echo "=== cluster experiment, double ($(date -u +%H:%M:%S))"
timeout 60 $B/session20_scan_cluster f64 20 21
echo "=== cluster experiment, int32 ($(date -u +%H:%M:%S))"
timeout 60 $B/session20_scan_cluster i32 21 22
echo "=== test_cuda_scan, full ($(date -u +%H:%M:%S))"
timeout 200 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 3
echo "=== specialized at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 80 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 2
echo "=== sort, 16-byte values by size ($(date -u +%H:%M:%S))"
for t in u32 u64; do
  timeout 150 $S sweep sort --type $t --pairs --value-bytes 16 --min-log 12 --max-log 28 --reps 5 --seed 3 --no-plot --out $OUT/s20-sweep-$t-v16 2>&1 | grep -vE "^\s*$" | tail -n 40
done
echo "=== sort, 8-byte values above 2^28 ($(date -u +%H:%M:%S))"
timeout 120 $S bench sort -n 2^29 --type u32 --pairs --value-bytes 8 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^(onesweep|cub) |error"
timeout 120 $S bench sort -n 2^28 --type u64 --pairs --value-bytes 8 --algo onesweep,cub --reps 5 --seed 1 2>&1 | grep -E "^(onesweep|cub) |error"
timeout 150 $S bench sort -n 2^29 --type u64 --pairs --value-bytes 8 --algo onesweep,cub --reps 3 --seed 1 2>&1 | grep -E "^(onesweep|cub) |error"
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
