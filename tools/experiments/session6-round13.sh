#!/usr/bin/env bash
# Session 6, GPU round 13: compaction with the raking block scan only (the switch removed):
# the tests in full, compute-sanitizer, verify, the issue's benchmarks and a size sweep.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
export SCANKIT_PYTHON=python3 SCANKIT_PLOT_SCRIPT=$PWD/tools/plot_sweep.py SCANKIT_TOOLS_DIR=$PWD/tools
L=$OUT/round13.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_compact"; timeout 150 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
for tool in memcheck synccheck racecheck; do step "compute-sanitizer $tool test_cuda_compact quick"
  SCANKIT_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"; done
step "verify compact"; timeout 100 $S verify compact --cases 100 2>&1 | tail -n 2
C="$S bench compact --algo single-pass --compare cub --reps 10 --seed 1 --device-only"
for n in 2^28 2^30; do for p in 0.01 0.5 0.99; do step "select_if u32 $n p=$p"; $C -n $n --selectivity $p 2>&1 | tail -n 2; done; done
for op in partition unique nonzero select_flagged remove_if; do step "$op u32 2^28"; $C -n 2^28 --op $op 2>&1 | tail -n 2; done
for t in u64 f32 f64; do step "select_if $t 2^28 p=0.5"; $C -n 2^28 --type $t --selectivity 0.5 2>&1 | tail -n 2; done
step "default bench compact"; $S bench compact --reps 10 --seed 1 --json $OUT/bench-compact.json 2>&1 | tail -n 12
step "sweep compact p=0.5"; timeout 120 $S sweep compact --selectivity 0.5 --algo single-pass --compare cub,copy --reps 5 --seed 1 --device-only --no-plot --out $OUT/compact-sweep-p50 2>&1 | tail -n 1
step "sweep compact p=0.01"; timeout 100 $S sweep compact --selectivity 0.01 --algo single-pass --compare cub --reps 5 --seed 1 --device-only --no-plot --out $OUT/compact-sweep-p01 2>&1 | tail -n 1
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
