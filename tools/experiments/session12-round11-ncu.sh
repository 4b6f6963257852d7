#!/usr/bin/env bash
# Session 12, round 11: where a onesweep pass's time goes. Nsight Compute (clocks left alone)
# on one digit pass (the second of a timed sort) of ours and of CUB's onesweep kernel, uint32
# keys and uint32/uint32 pairs at 2^26: speed of light, memory, occupancy, scheduler and the
# stall breakdown per issued instruction.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round11.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
N="ncu --clock-control none"
SEC="--section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum"
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for mode in keys pairs; do
  P=""; [ $mode = pairs ] && P="--pairs"
  step "ours $mode 2^26"
  timeout 150 $N $SEC -k regex:onesweep_kernel --launch-skip 5 --launch-count 1 $S bench sort -n 2^26 $P --reps 1 --algo onesweep --no-cub --seed 1 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 120
  step "CUB $mode 2^26"
  timeout 150 $N $SEC -k regex:Onesweep --launch-skip 5 --launch-count 1 $S bench sort -n 2^26 $P --reps 1 --algo cub --seed 1 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 120
done
step end
} > "$L" 2>&1
grep -E "===|Duration|Registers Per|Block Size|Achieved Occupancy|Theoretical Occ|Executed Ipc A|Issue Slots Busy|Memory Throughput|DRAM Throughput|Compute \(SM\)|No Eligible|Warp Cycles Per Issued|Grid Size|Dynamic Shared|stalled_.*ratio|inst_executed.sum|dram__bytes|lts__t_bytes" "$L" | awk '$NF != "0" || /===/'
