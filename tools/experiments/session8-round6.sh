#!/usr/bin/env bash
# Session 8, GPU round 6: scan benchmarks of the blocked look-back tile against CUB and the copy
# (2^28 / 2^30 for 4-byte types, 2^28 for 8-byte types, max/min), and size sweeps with the
# blocked tile always / never and without the first delay (where it should start; int32 and
# int64 sums, CUB in the same process).
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session8-round6.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
D="--algo decoupled-lookback --compare cub,copy --device-only"
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for t in i32 u32 f32; do for n in 2^28 2^30; do step "bench $t $n"; timeout 60 $S bench scan -n $n --type $t --reps 10 $D 2>&1 | grep -E "decoupled|cub|copy"; done; done
for t in i64 u64 f64; do step "bench $t 2^28"; timeout 60 $S bench scan -n 2^28 --type $t --reps 10 $D 2>&1 | grep -E "decoupled|cub|copy"; done
for o in max min; do for n in 2^20 2^24 2^28; do step "bench max/min $o $n"; timeout 60 $S bench scan -n $n --op $o --reps 20 $D 2>&1 | grep -E "decoupled|cub|copy"; done; done
for t in i32 i64; do
  for cfg in "default:" "always:SCANKIT_LOOKBACK_BLOCKED_FROM=0" "never:SCANKIT_LOOKBACK_BLOCKED_FROM=1000000000000" "nodelay:SCANKIT_LOOKBACK_FIRST_DELAY=0"; do
    name=${cfg%%:*}; var=${cfg#*:}
    step "sweep $t $name ($var)"
    env $var timeout 100 $S sweep scan --over size --type $t --min-log 10 --max-log 30 --reps 7 --algo decoupled-lookback --compare cub --device-only --no-plot --out $OUT/sweep-$t-$name 2>&1 | tail -n 1
  done
done
step "vs CUB by size (CUB time over ours; columns: the sweeps above)"
python3 - "$OUT" <<'PY' 2>&1
import csv, os, sys
out = sys.argv[1]
for t in ("i32", "i64"):
    cols, table = [], {}
    for name in ("default", "always", "never", "nodelay"):
        f = os.path.join(out, f"sweep-{t}-{name}.csv")
        if not os.path.exists(f): continue
        cols.append(name)
        for r in csv.DictReader(open(f)):
            if r["algorithm"] == "decoupled-lookback":
                table.setdefault(int(r["log2_n"]), {})[name] = (r["vs_cub"], r["device_ms"], r["status"])
    print(t, "log2_n", *cols)
    for lg in sorted(table):
        print(t, lg, *[("%.3f (%s ms %s)" % (float(table[lg][c][0]), table[lg][c][1], table[lg][c][2])) if c in table[lg] else "-" for c in cols])
PY
step end
} > "$L" 2>&1
tail -c 11000 "$L"
