#!/usr/bin/env bash
# Session 7, GPU round 1: (a) racecheck on a subset of the compaction tests and the compaction
# size sweeps (session 6's raking kernel), (b) where the instructions go: SASS of our onesweep
# and compaction kernels and CUB's, and Nsight Compute's per-instruction execution counts
# (source page) for one onesweep pass and one compaction launch of each.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/round1.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
N="ncu --clock-control none"
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; ncu --version | tail -1
step "compute-sanitizer racecheck test_cuda_compact quick, *TileSizes*:*UserStruct*"
SCANKIT_TEST_QUICK=1 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 --gtest_filter='*TileSizes*:*UserStruct*' 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"
step "sweep compact p=0.5"; timeout 90 $S sweep compact --selectivity 0.5 --algo single-pass --compare cub --reps 5 --seed 1 --device-only --no-plot --out $OUT/compact-sweep-p50 2>&1 | tail -n 1
step "sweep compact p=0.01"; timeout 90 $S sweep compact --selectivity 0.01 --min-log 14 --algo single-pass --compare cub --reps 5 --seed 1 --device-only --no-plot --out $OUT/compact-sweep-p01 2>&1 | tail -n 1
step "SASS"
mkdir -p /tmp/sass
timeout 120 cuobjdump --dump-sass $S > /tmp/sass/all.sass 2>/dev/null; ls -la /tmp/sass/all.sass
python3 - <<'PY'
import re, subprocess
txt = open('/tmp/sass/all.sass').read()
parts = re.split(r'(?m)^\s+Function : ', txt)
keep = []
for p in parts[1:]:
    name = p.split('\n', 1)[0].strip()
    if re.search(r'onesweep_kernel|Onesweep|single_pass|SelectSweep|lookback_scan_kernel|DeviceScanKernel', name):
        keep.append((name, p))
names = [n for n, _ in keep]
dem = subprocess.run(['c++filt'], input='\n'.join(names), capture_output=True, text=True).stdout.split('\n')
with open('/tmp/sass/kernels.sass', 'w') as f:
    for (n, p), d in zip(keep, dem):
        f.write('##### ' + d + '\n' + '\tFunction : ' + p)
print(len(keep), 'kernels kept')
PY
step "ncu source: our onesweep u32 2^27 (3rd launch)"
timeout 150 $N --section SourceCounters --import-source no -k regex:onesweep_kernel --launch-skip 2 --launch-count 1 -o /tmp/sass/ours_sort $S bench sort -n 2^27 --type u32 --reps 1 --algo onesweep --no-cub --seed 1 > /dev/null 2>&1; echo "[exit $?]"
step "ncu source: CUB onesweep u32 2^27 (3rd launch)"
timeout 150 $N --section SourceCounters --import-source no -k regex:Onesweep --launch-skip 2 --launch-count 1 -o /tmp/sass/cub_sort $S bench sort -n 2^27 --type u32 --reps 1 --algo cub --seed 1 > /dev/null 2>&1; echo "[exit $?]"
step "ncu source: our compaction 2^28 50%"
timeout 100 $N --section SourceCounters --import-source no -k regex:single_pass --launch-skip 1 --launch-count 1 -o /tmp/sass/ours_compact $S bench compact -n 2^28 --selectivity 0.5 --algo single-pass --compare none --reps 1 --seed 1 --device-only > /dev/null 2>&1; echo "[exit $?]"
step "ncu source: CUB select 2^28 50%"
timeout 100 $N --section SourceCounters --import-source no -k regex:SelectSweep --launch-skip 1 --launch-count 1 -o /tmp/sass/cub_compact $S bench compact -n 2^28 --selectivity 0.5 --algo single-pass --compare cub --reps 1 --seed 1 --device-only > /dev/null 2>&1; echo "[exit $?]"
for r in ours_sort cub_sort ours_compact cub_compact; do
  [ -f /tmp/sass/$r.ncu-rep ] || continue
  ncu --import /tmp/sass/$r.ncu-rep --page source --print-source sass --csv > /tmp/sass/$r.csv 2>/tmp/sass/$r.err; echo "$r: $(wc -l < /tmp/sass/$r.csv) lines $(head -c 300 /tmp/sass/$r.err)"
  ncu --import /tmp/sass/$r.ncu-rep --print-summary none 2>/dev/null | grep -E "Duration|Executed Instructions|Kernel|onesweep|Onesweep|Select" | head -8
done
step end
} > "$L" 2>&1
cd /tmp/sass && tar -cJf $OUT/sass.tar.xz kernels.sass *.csv *.ncu-rep 2>/dev/null; ls -la $OUT
cd $OUT && python3 - <<'PY' >> $L
import csv, glob
for f in sorted(glob.glob('compact-sweep-*.csv')):
    by = {}
    for r in csv.DictReader(open(f)):
        by.setdefault(int(r['n']), {})[r['algorithm']] = float(r['device_ms'])
    print(f, ' '.join(f"2^{n.bit_length()-1}:{d['cub']/d['single-pass']:.2f}" for n, d in sorted(by.items()) if 'cub' in d and 'single-pass' in d))
PY
cat $L | cut -c1-250
