#!/usr/bin/env bash
# Session 6, GPU round 6: where the int64 scan's time goes. Nsight Compute (clocks left
# alone) on one launch of our look-back scan kernel and of CUB's scan kernel, int64 and int32
# sums at 2^26 (staged tiles in both cases).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round6.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
N="ncu --clock-control none"
SEC="--section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats"
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for t in i64 i32; do
step "ours $t 2^26"
timeout 100 $N $SEC -k regex:lookback_scan_kernel --launch-skip 1 --launch-count 1 $S bench scan -n 2^26 --type $t --reps 1 --algo decoupled-lookback --compare none --device-only --seed 1 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 90
step "CUB $t 2^26"
timeout 100 $N $SEC -k regex:DeviceScanKernel --launch-skip 1 --launch-count 1 $S bench scan -n 2^26 --type $t --reps 1 --algo decoupled-lookback --compare cub --device-only --seed 1 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 90
done
step end
} > "$L" 2>&1
grep -E "===|Duration|Registers Per|Block Size|Achieved Occupancy|Theoretical Occ|Executed Ipc A|Issue Slots Busy|Memory Throughput|DRAM Throughput|Compute \(SM\)|Executed Instructions  |No Eligible|Warp Cycles Per Issued|Waves Per SM|Grid Size|Shared Memory Config|Dynamic Shared" "$L"
