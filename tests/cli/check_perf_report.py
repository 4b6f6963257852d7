#!/usr/bin/env python3
"""tools/perf-report --render-only over a copy of docs/: it must run, and the report it writes
from the committed docs/perf/ (a results.json and Python JSON per device) must be the committed docs/PERFORMANCE.md, so that
the document is what the tool makes of its own data (and a change to the tool that would
rewrite it shows here)."""
import argparse
import difflib
import shutil
import subprocess
import sys
from pathlib import Path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    a = ap.parse_args()
    docs, work = a.repo / "docs", a.work / "perf-report-docs"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copytree(docs / "perf", work / "perf")
    p = subprocess.run([sys.executable, str(a.repo / "tools" / "perf-report"), "--out", str(work), "--render-only"],
                       capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 1):  # 1: a run recorded in results.json failed; the report is still written
        print(p.stdout, p.stderr, sep="\n")
        return 1
    want = (docs / "PERFORMANCE.md").read_text().splitlines(keepends=True)
    got = (work / "PERFORMANCE.md").read_text().splitlines(keepends=True)
    if want != got:
        sys.stdout.writelines(difflib.unified_diff(want, got, "docs/PERFORMANCE.md", "rendered"))
        return 1
    print("perf-report renders docs/PERFORMANCE.md from docs/perf/ unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
