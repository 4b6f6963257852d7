#!/usr/bin/env bash
# Session 6, GPU round 11: where the staged look-back tile should start now that the block
# scan rakes (int32 sum and max, 2^20-2^26, staged always against never; CUB in the same run).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round11.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for op in sum max; do for from in 0 1000000000000; do step "$op staged from $from"
  SCANKIT_LOOKBACK_STAGED_FROM=$from timeout 100 $S sweep scan --over size --op $op --min-log 20 --max-log 26 --reps 15 --algo decoupled-lookback --compare cub --device-only --seed 1 --no-plot --out $OUT/stage-$op-$from 2>&1 | tail -n 2
done; done
} > "$L" 2>&1
cd $OUT && python3 - <<'PY'
import csv, glob
for f in sorted(glob.glob('stage-*.csv')):
    by = {}
    for r in csv.DictReader(open(f)):
        by.setdefault(int(r['n']), {})[r['algorithm']] = float(r['device_ms'])
    print(f, ' '.join(f"2^{n.bit_length()-1}:{d['decoupled-lookback']:.4f}/{d['cub']/d['decoupled-lookback']:.3f}" for n, d in sorted(by.items())))
PY
