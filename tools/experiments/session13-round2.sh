#!/usr/bin/env bash
# Session 13, round 2: the guessed tile (loads of tile blockIdx.x issued while the tile
# counter's atomic is in flight, kept when the id matches) in the blocked look-back scan, the
# single-pass compaction and onesweep (2-block shapes). A/B in alternating processes
# (SCANKIT_GUESS_TILE=off / on), CUB in each.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session13-round2.log
ab() {  # ab LABEL GREP ARGS...: three alternating pairs
  local label=$1 pat=$2; shift 2
  echo "-- $label"
  for i in 1 2 3; do
    for pf in 0 1; do
      echo -n "pf=$pf "; SCANKIT_GUESS_TILE=$([ $pf = 0 ] && echo off || echo on) timeout 60 "$S" "$@" 2>&1 | grep -E "$pat" | tr -s ' ' | tr '\n' ' '; echo
    done
  done
}
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
SC="^decoupled-lookback|^CUB|^cub"
for t in i32 i64; do
  ab "scan $t 2^28" "$SC" bench scan -n 2^28 --type $t --algo decoupled-lookback --compare cub --device-only --reps 9 --seed 1
done
ab "scan f64 2^28" "$SC" bench scan -n 2^28 --type f64 --algo decoupled-lookback --compare cub --device-only --reps 9 --seed 1
ab "scan i32 2^30" "$SC" bench scan -n 2^30 --type i32 --algo decoupled-lookback --compare cub --device-only --reps 5 --seed 1
ab "scan i32 2^24" "$SC" bench scan -n 2^24 --type i32 --algo decoupled-lookback --compare cub --device-only --reps 15 --seed 1
for e in 22 24 26; do
  ab "scan i64 2^$e" "$SC" bench scan -n 2^$e --type i64 --algo decoupled-lookback --compare cub --device-only --reps 15 --seed 1
done
CO="^single-pass|^CUB|^cub"
for p in 0.5 0.01 0.99; do
  ab "compact $p 2^28" "$CO" bench compact -n 2^28 --selectivity $p --algo single-pass --compare cub --device-only --reps 9 --seed 1
done
for e in 22 24; do
  ab "compact 0.5 2^$e" "$CO" bench compact -n 2^$e --selectivity 0.5 --algo single-pass --compare cub --device-only --reps 15 --seed 1
done
SO="^onesweep|^cub"
ab "sort u32 pairs 2^28" "$SO" bench sort -n 2^28 --type u32 --pairs --algo onesweep,cub --reps 7 --seed 1
ab "sort u64 2^28" "$SO" bench sort -n 2^28 --type u64 --algo onesweep,cub --reps 5 --seed 1
ab "sort u64 + 4B 2^27" "$SO" bench sort -n 2^27 --type u64 --pairs --algo onesweep,cub --reps 5 --seed 1
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
