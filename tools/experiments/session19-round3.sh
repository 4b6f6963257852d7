#!/usr/bin/env bash
# Session 19, round 3: (1) onesweep pairs with bigger tiles at one block per SM
# (session8_onesweep s19b); (2) the final scan code (two producer warps for 4-byte items, the
# tile from 2^22 + 1): test_cuda_scan in full, the decoupled-lookback suite with the tile at
# every size, compute-sanitizer memcheck / racecheck / synccheck on it, verify scan, and the
# int32 and float size sweeps.
set -uo pipefail
mkdir -p .devbundle/x && for b in bin s19s; do tar -C .devbundle/x -xJf .devbundle/$b.tar.xz; done
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session19-round3.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== onesweep pairs at one block per SM ($(date -u +%H:%M:%S))"
timeout 120 .devbundle/x/s19s/session8_onesweep s19b
echo "=== test_cuda_scan, full ($(date -u +%H:%M:%S))"
timeout 150 $B/test_cuda_scan --gtest_brief=1 2>&1 | tail -n 3
echo "=== specialized at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 80 $B/test_cuda_scan --gtest_brief=1 --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 2
for tool in memcheck synccheck racecheck; do
  echo -n "$tool, specialized at every size ($(date -u +%H:%M:%S)): "
  SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 SCANKIT_TEST_QUICK=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 $B/test_cuda_scan --gtest_brief=1 \
    --gtest_filter='*NonCommutativeAffine/decoupled_lookback:*Deterministic/decoupled_lookback:*EveryTypeAndOperator/decoupled_lookback' 2>&1 | tail -n 3 | tr '\n' ' '
  echo "[exit ${PIPESTATUS[0]}]"
done
echo "=== verify scan ($(date -u +%H:%M:%S))"; timeout 60 $S verify scan --cases 100 2>&1 | tail -n 2
echo "=== sweeps ($(date -u +%H:%M:%S))"
cd $OUT
sw() { timeout 70 $S sweep scan --over size --algo decoupled-lookback --compare cub,copy --device-only --seed 3 --no-plot "$@" >/dev/null 2>&1; echo "$* [exit $?]"; }
sw --type i32 --min-log 9 --max-log 25 --reps 41 --out $OUT/s19-sweep41-i32
sw --type f32 --min-log 9 --max-log 25 --reps 41 --out $OUT/s19-sweep41-f32
sw --type i32 --min-log 24 --max-log 30 --reps 7 --out $OUT/s19-sweep-i32
rm -f $OUT/*.json
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cut -c1-230 "$L" | tail -n 90
