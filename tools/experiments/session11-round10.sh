#!/usr/bin/env bash
# Session 11, round 10: the fixes after round 9 (every dynamic shared-memory size is set
# explicitly, since static shared memory comes on top of it; a failed CUDA call resets the
# runtime's last error). test_cuda_sort in full (bit ranges of 3 and 6 digit passes added),
# verify sort on round 8's seed and on 300 new cases, the other primitives' quick suites and
# verify runs.
set -uo pipefail
tar -C .devbundle -xJf .devbundle/bin.tar.xz
B=$PWD/.devbundle/bin; export LD_LIBRARY_PATH=$B; S=$B/scankit
L=$OUT/session11-round10.log
{
echo "=== device ($(date -u +%H:%M:%S))"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 0 1; do (GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 300 $B/test_cuda_sort --gtest_brief=1 > /tmp/shard$i.txt 2>&1; echo "[shard $i exit $?]" >> /tmp/shard$i.txt) & done
(for t in scan compact histogram; do SCANKIT_TEST_QUICK=1 timeout 200 $B/test_cuda_$t --gtest_brief=1 > /tmp/$t.txt 2>&1; echo "[$t exit $?]" >> /tmp/$t.txt; done) &
wait
for i in 0 1; do echo "=== test_cuda_sort FULL shard $i"; tail -n 4 /tmp/shard$i.txt; done
for t in scan compact histogram; do echo "=== test_cuda_$t quick"; tail -n 4 /tmp/$t.txt; done
echo "=== verify ($(date -u +%H:%M:%S))"
timeout 120 $S verify sort --seed 8479127006686242485 2>&1 | grep -E "FAIL|passed"
timeout 200 $S verify sort --cases 300 2>&1 | grep -E "verify sort|FAIL|passed"
for p in scan compact histogram; do timeout 120 $S verify $p 2>&1 | grep -E "^scankit verify|FAIL|passed" | head -n 4; done
echo "=== end ($(date -u +%H:%M:%S))"
} > "$L" 2>&1
cat "$L"
