#!/usr/bin/env bash
# Session 12, round 12: the onesweep keys kernel's SASS (uint32 keys, 512 x 22 x 3, staged
# early; .devbundle-s12/k.cubin built from a one-line probe of that instantiation) and the
# pipe utilisation and instruction mix of one pass (ours and CUB's), uint32 keys at 2^26.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session12-round12.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== sass"; cuobjdump -sass .devbundle-s12/k.cubin > $OUT/onesweep-u32-512x22x3.sass 2>&1; wc -l $OUT/onesweep-u32-512x22x3.sass
for who in ours cub; do
  if [ $who = ours ]; then K=regex:onesweep_kernel; A="--algo onesweep --no-cub"; else K=regex:Onesweep; A="--algo cub"; fi
  echo "=== $who keys 2^26 ($(date -u +%H:%M:%S))"
  timeout 150 ncu --clock-control none --section ComputeWorkloadAnalysis --section InstructionStats -k $K --launch-skip 5 --launch-count 1 $S bench sort -n 2^26 --reps 1 $A --seed 1 2>&1 | grep -vE "^==PROF==|^\s*$|----" | tail -n 60
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
