#!/usr/bin/env bash
# Session 22, round 13: the final code under compute-sanitizer (tools/gpu-check sanitize for the
# scan: memcheck, synccheck and racecheck on the quick suite, then the blocked, warp-specialized
# and load-window paths at small sizes), then scankit verify scan.
set -uo pipefail
mkdir -p .devbundle/x && tar -C .devbundle/x -xJf .devbundle/bin.tar.xz
SCANKIT_BUNDLE=.devbundle/x/bin SCANKIT_ONLY=scan SCANKIT_SANITIZE_SECONDS=480 timeout 580 tools/gpu-check sanitize > /dev/null 2>&1
grep -E "^===|PASSED|FAILED|SUMMARY|exit|not run|passed|failed" $OUT/gpu-check-sanitize.log
