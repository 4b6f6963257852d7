#!/usr/bin/env bash
# Session 6, GPU round 14: racecheck on a subset of the compaction tests (the whole quick suite
# outran 150 s under racecheck) and the compaction size sweeps, with the raking block scan.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round14.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "compute-sanitizer racecheck test_cuda_compact quick, *TileSizes*:*UserStruct*"
SCANKIT_TEST_QUICK=1 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*TileSizes*:*UserStruct*' 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"
step "sweep compact p=0.5"; timeout 90 $S sweep compact --selectivity 0.5 --algo single-pass --compare cub --reps 5 --seed 1 --device-only --no-plot --out $OUT/compact-sweep-p50 2>&1 | tail -n 1
step "sweep compact p=0.01"; timeout 90 $S sweep compact --selectivity 0.01 --min-log 14 --algo single-pass --compare cub --reps 5 --seed 1 --device-only --no-plot --out $OUT/compact-sweep-p01 2>&1 | tail -n 1
step end
} > "$L" 2>&1
cd $OUT && python3 - <<'PY' >> $L
import csv, glob
for f in sorted(glob.glob('compact-sweep-*.csv')):
    by = {}
    for r in csv.DictReader(open(f)):
        by.setdefault(int(r['n']), {})[r['algorithm']] = float(r['device_ms'])
    print(f, ' '.join(f"2^{n.bit_length()-1}:{d['cub']/d['single-pass']:.2f}" for n, d in sorted(by.items()) if 'cub' in d and 'single-pass' in d))
PY
cat $L
