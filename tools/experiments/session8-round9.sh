#!/usr/bin/env bash
# Session 8, GPU round 9: onesweep tiles staged early, bigger (keys 2^16-2^30, pairs 2^24 and
# 2^28), and 16-byte user items through the blocked scan tile at small sizes (default
# thresholds, then the blocked tile at every size).
set -uo pipefail
L=$OUT/session8-round9.log
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
{
step device; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
step "user operators against CUB"; timeout 120 .devbundle/custom_ops | grep affine64
step "user operators against CUB, blocked tile at every size"; SCANKIT_LOOKBACK_BLOCKED_FROM=0 timeout 120 .devbundle/custom_ops | grep affine64
step "onesweep shapes"; timeout 400 .devbundle/onesweep round9
step end
} > "$L" 2>&1
tail -c 11000 "$L"
