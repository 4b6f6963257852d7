#!/usr/bin/env bash
# Session 19, round 7: where onesweep's large pairs tiles should start, from the library itself:
# each row with the large tile always (SCANKIT_ONESWEEP_LARGE_FROM=0) and never, CUB in the
# same process. 8-byte values at 2^22-2^23.5 (round 6's sweeps had 0.99x / 1.00x at 2^23, below
# the 2^24 threshold), 4-byte pairs at 2^23-2^23.5, and 1- and 2-byte keys with 4-byte values
# at 2^28 (int8 pairs measured 1.05x with the large tile, 1.07x in session 12).
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session19-round7.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
R="--algo onesweep,cub --reps 9 --seed 1"
for spec in "u32 8 4194304" "u32 8 5931641" "u32 8 8388608" "u32 8 11863283" "u64 8 4194304" "u64 8 5931641" "u64 8 8388608" "u64 8 11863283" \
            "u32 4 8388608" "u32 4 11863283" "i8 4 268435456" "u16 4 268435456" "i16 4 268435456"; do set -- $spec
  for mode in always never; do
    f=0; [ $mode = never ] && f=1000000000000
    echo -n "$1 + $2-byte values, n = $3, large tile $mode: "
    SCANKIT_ONESWEEP_LARGE_FROM=$f timeout 60 $S bench sort -n $3 --type $1 --pairs --value-bytes $2 $R 2>&1 | grep -E "^onesweep|^cub" | tr -s ' ' | tr '\n' ' '; echo
  done
done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
