#!/usr/bin/env bash
# Session 5, third GPU round: where the time goes. Nsight Compute (clocks left alone): every
# kernel's duration in one sort and one compaction, then stall reasons of one launch of our
# kernels and of CUB's counterparts.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round3.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
N="ncu --clock-control none"
SEC="--section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis"
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; ncu --version | tail -1
step "durations: sort u32 2^27"
timeout 120 $N --metrics gpu__time_duration.sum $S bench sort -n 2^27 --type u32 --reps 1 --algo onesweep,cub --seed 1 2>&1 |
  grep -E "^\s+[a-zA-Z_:<>]+.*\(|gpu__time_duration" | paste - - | sed -E 's/\s+/ /g' | cut -c1-200 | head -60
step "durations: compact 2^28 50%"
timeout 90 $N --metrics gpu__time_duration.sum $S bench compact -n 2^28 --selectivity 0.5 --algo single-pass --compare cub --reps 1 --seed 1 --device-only 2>&1 |
  grep -E "^\s+[a-zA-Z_:<>]+.*\(|gpu__time_duration" | paste - - | sed -E 's/\s+/ /g' | cut -c1-200 | head -40
step "sections: our onesweep_kernel (u32 2^27, 3rd launch)"
timeout 120 $N $SEC -k regex:onesweep_kernel --launch-skip 2 --launch-count 1 $S bench sort -n 2^27 --type u32 --reps 1 --algo onesweep --no-cub --seed 1 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 120
step "sections: CUB onesweep (u32 2^27, 3rd launch)"
timeout 120 $N $SEC -k regex:Onesweep --launch-skip 2 --launch-count 1 $S bench sort -n 2^27 --type u32 --reps 1 --algo cub --seed 1 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 120
step "sections: our single_pass_kernel (2^28, 1%)"
timeout 100 $N $SEC -k regex:single_pass_kernel --launch-skip 1 --launch-count 1 $S bench compact -n 2^28 --selectivity 0.01 --algo single-pass --compare none --reps 1 --seed 1 --device-only 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 120
step "sections: CUB select (2^28, 1%)"
timeout 100 $N $SEC -k regex:SelectSweep --launch-skip 1 --launch-count 1 $S bench compact -n 2^28 --selectivity 0.01 --algo single-pass --compare cub --reps 1 --seed 1 --device-only 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 120
step end
} > "$L" 2>&1
tail -c 3000 "$L"
