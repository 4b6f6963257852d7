#!/usr/bin/env bash
# Session 12, round 17: is the look-back scan bound by an issue pipe, as onesweep was? Nsight
# Compute on one launch of ours and CUB's, int32 and int64 sums at 2^28 (clocks left alone).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round17.log
N="ncu --clock-control none"
SEC="--section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --section LaunchStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,dram__bytes_read.sum,dram__bytes_write.sum"
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in i32 i64; do
  echo "=== ours $t 2^28"
  timeout 120 $N $SEC -k regex:blocked_kernel --launch-skip 1 --launch-count 1 $S bench scan -n 2^28 --type $t --reps 1 --algo decoupled-lookback --compare none --device-only --seed 1 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 90
  echo "=== CUB $t 2^28"
  timeout 120 $N $SEC -k regex:DeviceScanKernel --launch-skip 1 --launch-count 1 $S bench scan -n 2^28 --type $t --reps 1 --algo decoupled-lookback --compare cub --device-only --seed 1 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 90
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
grep -E "===|  void |Duration|Registers Per|Block Size|Grid Size|Achieved Occupancy|Theoretical Occ|Issue Slots Busy|SM Busy|is the highest|DRAM Throughput|Memory Throughput  |Executed Instructions  |No Eligible|Warp Cycles Per Issued|stalled_.*ratio|dram__bytes" "$L" | awk '$NF != "0" && $NF != "0.00" || /===/ || /void/' | cut -c1-160
