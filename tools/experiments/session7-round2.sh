#!/usr/bin/env bash
# Session 7, GPU round 2: onesweep's ballots in PTX, compaction's items-only kernel, the raking
# scan's warp totals by shuffles. Tests in full, the benchmarks (CUB in the same process), and
# Nsight Compute's instruction counts of one onesweep pass and one compaction launch.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round2.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
F='*onesweep*:CudaSortKeys.*:CudaSortArgs.*:CudaSortOrder.*:CudaSortLarge.*'
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_compact full"; timeout 120 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 4; echo "[exit ${PIPESTATUS[0]}]"
step "test_cuda_scan full"; timeout 100 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 4; echo "[exit ${PIPESTATUS[0]}]"
step "test_cuda_sort full ($F)"; timeout 260 $B/test_cuda_sort --gtest_brief=1 --gtest_filter="$F" 2>&1 | tail -n 6; echo "[exit ${PIPESTATUS[0]}]"
for t in u32 f32 u64; do step "sort $t"; $S bench sort -n 2^28 --type $t --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2; done
step "sort pairs u32, 4-byte values"; $S bench sort -n 2^28 --type u32 --pairs --value-bytes 4 --reps 5 --algo onesweep,cub --seed 1 2>&1 | tail -n 2
C="$S bench compact --algo single-pass --compare cub --reps 10 --seed 1 --device-only"
for p in 0.01 0.5 0.99; do step "select_if u32 2^28 p=$p"; $C -n 2^28 --selectivity $p 2>&1 | tail -n 2; done
step "select_if u32 2^30 p=0.5"; $C -n 2^30 --selectivity 0.5 2>&1 | tail -n 2
for op in partition unique select_flagged remove_if; do step "$op u32 2^28"; $C -n 2^28 --op $op 2>&1 | tail -n 2; done
step "select_if u32 2^22 p=0.5"; $C -n 2^22 --selectivity 0.5 2>&1 | tail -n 2
for t in i32 i64; do step "scan $t 2^28"; $S bench scan -n 2^28 --type $t --algo decoupled-lookback --compare cub,copy --reps 10 --seed 1 --device-only 2>&1 | tail -n 3; done
step "scan max i32 2^24"; $S bench scan -n 2^24 --op max --algo decoupled-lookback --compare cub --reps 10 --seed 1 --device-only 2>&1 | tail -n 2
step "ncu: instructions, our onesweep u32 2^27 (3rd launch) and CUB's"
ncu --clock-control none --metrics smsp__inst_executed.sum,gpu__time_duration.sum -k regex:onesweep_kernel --launch-skip 2 --launch-count 1 $S bench sort -n 2^27 --type u32 --reps 1 --algo onesweep --no-cub --seed 1 2>&1 | grep -E "inst_executed|duration"
ncu --clock-control none --metrics smsp__inst_executed.sum,gpu__time_duration.sum -k regex:Onesweep --launch-skip 2 --launch-count 1 $S bench sort -n 2^27 --type u32 --reps 1 --algo cub --seed 1 2>&1 | grep -E "inst_executed|duration"
step "ncu: instructions, our compaction 2^28 50% and CUB's"
ncu --clock-control none --metrics smsp__inst_executed.sum,gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active -k regex:single_pass --launch-skip 1 --launch-count 1 $S bench compact -n 2^28 --selectivity 0.5 --algo single-pass --compare none --reps 1 --seed 1 --device-only 2>&1 | grep -E "inst_executed|duration|registers|warps_active"
ncu --clock-control none --metrics smsp__inst_executed.sum,gpu__time_duration.sum -k regex:SelectSweep --launch-skip 1 --launch-count 1 $S bench compact -n 2^28 --selectivity 0.5 --algo single-pass --compare cub --reps 1 --seed 1 --device-only 2>&1 | grep -E "inst_executed|duration"
step end
} > "$L" 2>&1
cat "$L"
