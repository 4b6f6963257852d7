#!/usr/bin/env bash
# Session 8, GPU round 7 (the blocked tile from 2^24 four-byte / 2^21 eight-byte items):
# test_cuda_scan in full, user operators against CUB (tools/experiments/session8_custom_ops.cu),
# and the int32 / int64 / int32-max size sweeps against CUB with the final thresholds.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session8-round7.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "test_cuda_scan full"; timeout 150 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 3; echo "[exit ${PIPESTATUS[0]}]"
step "user operators against CUB"; timeout 120 .devbundle/custom_ops
for t in "i32 sum" "i64 sum" "i32 max" "f64 sum"; do set -- $t
  step "sweep $1 $2"; timeout 100 $S sweep scan --over size --type $1 --op $2 --min-log 10 --max-log 30 --reps 7 --algo decoupled-lookback --compare cub,copy --device-only --out $OUT/sweep-$1-$2 2>&1 | tail -n 2
done
step "vs CUB by size"
python3 - "$OUT" <<'PY' 2>&1
import csv, os, sys
out = sys.argv[1]
for name in ("i32-sum", "i64-sum", "i32-max", "f64-sum"):
    f = os.path.join(out, f"sweep-{name}.csv")
    if not os.path.exists(f): continue
    rows = [r for r in csv.DictReader(open(f)) if r["algorithm"] == "decoupled-lookback"]
    print(name, " ".join(f"{r['log2_n']}:{float(r['vs_cub']):.2f}{'' if r['status'] == 'PASS' else '!' + r['status']}" for r in rows))
PY
step end
} > "$L" 2>&1
tail -c 11000 "$L"
