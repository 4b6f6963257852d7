#!/usr/bin/env bash
# Session 19, round 2: the library with two producer warps at 256 x 9 x 3 (2 blocks/SM) for
# 4-byte items. Bench rows at 2^28 and 2^30 (int32, uint32, float) and the default bench; the
# 8-byte rows (unchanged PTX) as a control; then where the warp-specialized tile should start
# for 4-byte items: each size with it always (SCANKIT_LOOKBACK_SPECIALIZED_FROM=0) and never.
# Ends with the decoupled-lookback tests with the tile at every size. (The first run of this
# script, session19-round2-broken.log, lost every decoupled-lookback row to a wrong grep.)
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/x/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session19-round2.log
row() { "$S" bench scan --algo decoupled-lookback --compare cub,copy --device-only --seed 1 "$@" | grep -E "^(decoupled-lookback|cub|copy) "; }
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== default bench"; "$S" bench scan --reps 20 --algo decoupled-lookback --compare cub,copy --device-only --seed 1 | tail -n 6
for t in i32 u32 f32; do for n in 2^28 2^30; do echo "=== $t $n"; row -n $n --type $t --reps 10; done; done
for t in i64 f64; do echo "=== $t 2^28"; row -n 2^28 --type $t --reps 10; done
echo "=== where the specialized tile starts ($(date -u +%H:%M:%S))"
for t in i32 f32; do for n in 2097152 2965820 4194304 5931641 8388608 11863283 16777216 33554432 67108864; do
  echo "--- $t n=$n always"; SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 row -n $n --type $t --reps 21
  echo "--- $t n=$n never";  SCANKIT_LOOKBACK_SPECIALIZED_FROM=1000000000000 row -n $n --type $t --reps 21
done; done
echo "=== tests, the specialized tile at every size ($(date -u +%H:%M:%S))"
SCANKIT_LOOKBACK_SPECIALIZED_FROM=0 timeout 240 $B/test_cuda_scan --gtest_brief=1 \
  --gtest_filter='*decoupled_lookback*:-*HostContainers*:*MoreThan2Pow31*' 2>&1 | tail -n 5
echo "=== 4-byte pairs at 2, 3 and 4 blocks per SM (session8_onesweep s19) ($(date -u +%H:%M:%S))"
tar -C .devbundle/x -xJf .devbundle/s19s.tar.xz && timeout 150 .devbundle/x/s19s/session8_onesweep s19
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
grep -E "^===|^---|decoupled|^cub|PASSED|FAILED|^n = |^  " "$L" | tail -c 12000
