#!/usr/bin/env bash
# Session 9, GPU round 6 (measurements only, same build as round 5): where the look-back scan
# of 8-byte items loses to CUB at 2^17-2^26, the blocked tile always against never; select_if
# with the small and the medium tile at 2^18-2^26; racecheck on the whole compaction quick suite.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session9-round6.log
cols() {
  python3 - "$@" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(" ".join(r.get(c, "?") for c in sys.argv[2:]))
PY
}
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== scan: n, algorithm, device ms, vs CUB"
for t in i64 i32; do for from in 0 1000000000000; do
  echo "-- $t, SCANKIT_LOOKBACK_BLOCKED_FROM=$from ($(date -u +%H:%M:%S))"
  SCANKIT_LOOKBACK_BLOCKED_FROM=$from timeout 100 $S sweep scan --type $t --min-log 17 --max-log 26 --algo decoupled-lookback --compare cub --device-only --reps 9 --seed 1 --no-plot --out /tmp/s-$t-$from > /tmp/s.txt 2>&1 || tail -n 3 /tmp/s.txt
  cols /tmp/s-$t-$from.csv n algorithm device_ms vs_cub | grep -v " cub "
done; done
echo "=== select_if 50%, tile small / medium: n, device ms, vs CUB ($(date -u +%H:%M:%S))"
for tile in small medium; do echo "-- $tile"
  timeout 100 $S sweep compact --min-log 18 --max-log 26 --selectivity 0.5 --algo single-pass --tile $tile --compare cub --device-only --reps 9 --seed 1 --no-plot --out /tmp/c-$tile > /tmp/c.txt 2>&1 || tail -n 3 /tmp/c.txt
  cols /tmp/c-$tile.csv n algorithm device_ms vs_cub | grep single-pass
done
echo "=== racecheck compaction quick suite ($(date -u +%H:%M:%S))"
SCANKIT_TEST_QUICK=1 timeout 330 compute-sanitizer --tool racecheck --error-exitcode 1 $B/test_cuda_compact --gtest_brief=1 2>&1 | tail -n 3
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
