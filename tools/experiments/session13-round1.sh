#!/usr/bin/env bash
# Session 13, round 1: the guess prefetch (thread 0 asks L2 for tile blockIdx.x while the tile
# counter's atomic is in flight) in the look-back scan, the single-pass compaction and the
# onesweep passes. A/B in alternating processes (SCANKIT_GUESS_PREFETCH=0 / 1), CUB in each.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session13-round1.log
ab() {  # ab LABEL GREP ARGS...: three alternating pairs
  local label=$1 pat=$2; shift 2
  echo "-- $label"
  for i in 1 2 3; do
    for pf in 0 1; do
      echo -n "pf=$pf "; SCANKIT_GUESS_PREFETCH=$pf timeout 60 "$S" "$@" 2>&1 | grep -E "$pat" | tr -s ' ' | tr '\n' ' '; echo
    done
  done
}
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
SC="^decoupled-lookback|^CUB|^cub"
for t in i32 i64; do
  ab "scan $t 2^28" "$SC" bench scan -n 2^28 --type $t --algo decoupled-lookback --compare cub --device-only --reps 9 --seed 1
done
ab "scan i32 2^30" "$SC" bench scan -n 2^30 --type i32 --algo decoupled-lookback --compare cub --device-only --reps 5 --seed 1
for e in 20 22 24; do
  for t in i32 i64; do
    ab "scan $t 2^$e" "$SC" bench scan -n 2^$e --type $t --algo decoupled-lookback --compare cub --device-only --reps 15 --seed 1
  done
done
SO="^onesweep|^cub"
ab "sort u32 2^28" "$SO" bench sort -n 2^28 --type u32 --algo onesweep,cub --reps 7 --seed 1
ab "sort u32 pairs 2^28" "$SO" bench sort -n 2^28 --type u32 --pairs --algo onesweep,cub --reps 7 --seed 1
ab "sort u32 + 8B 2^28" "$SO" bench sort -n 2^28 --type u32 --pairs --value-bytes 8 --algo onesweep,cub --reps 5 --seed 1
ab "sort u64 + 4B 2^27" "$SO" bench sort -n 2^27 --type u64 --pairs --algo onesweep,cub --reps 5 --seed 1
CO="^single-pass|^CUB|^cub"
ab "compact 50% 2^28" "$CO" bench compact -n 2^28 --selectivity 0.5 --algo single-pass --compare cub --device-only --reps 9 --seed 1
ab "compact 50% 2^22" "$CO" bench compact -n 2^22 --selectivity 0.5 --algo single-pass --compare cub --device-only --reps 15 --seed 1
ab "compact 1% 2^28" "$CO" bench compact -n 2^28 --selectivity 0.01 --algo single-pass --compare cub --device-only --reps 9 --seed 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
