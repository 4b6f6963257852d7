#!/usr/bin/env bash
# Session 7, GPU round 4 (final code: the items-only compaction kernel removed again): the
# compaction tests in full, memcheck and racecheck on them, racecheck on the scan subset (its
# 50 s limit in round 3 was too short), the compaction benchmarks and the 50% size sweep.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round4.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
san() { local tool=$1 prog=$2 filter=$3 lim=$4; step "compute-sanitizer $tool $(basename $prog) quick ($filter)"
  SCANKIT_TEST_QUICK=1 timeout $lim compute-sanitizer --tool $tool --error-exitcode 1 $prog --gtest_brief=1 --gtest_filter="$filter" 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_compact full"; timeout 120 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 4; echo "[exit ${PIPESTATUS[0]}]"
san memcheck $B/test_cuda_compact '*' 60
san synccheck $B/test_cuda_compact '*' 60
san racecheck $B/test_cuda_compact '*Uint32AllPatterns*:*MisalignedPointers*' 100
san racecheck $B/test_cuda_scan '*NonCommutativeAffine*:*ZeroLength*' 170
step "verify compact"; timeout 60 $S verify compact --cases 100 2>&1 | tail -n 1
C="$S bench compact --algo single-pass --compare cub --reps 10 --seed 1 --device-only"
for p in 0.01 0.5 0.99; do step "select_if u32 2^28 p=$p"; $C -n 2^28 --selectivity $p 2>&1 | tail -n 2; done
for op in partition unique remove_if; do step "$op u32 2^28"; $C -n 2^28 --op $op 2>&1 | tail -n 2; done
step "sweep compact p=0.5"; timeout 90 $S sweep compact --selectivity 0.5 --algo single-pass --compare cub --reps 5 --seed 1 --device-only --no-plot --out $OUT/compact-sweep-p50 2>&1 | tail -n 1
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
