#!/usr/bin/env python3
"""The CLI's output contract (docs/CLI.md), checked end to end with tiny sizes.

    python3 tests/cli/check_cli.py --scankit build/scankit --work DIR GROUP

GROUP:
  json       every bench and sweep of every primitive writes JSON valid under cli_schema.py,
             exits 0 and says PASS/FAIL/n/a in its check column
  verify     every verify ends with the line "N passed, N failed" and exits 0; a verify whose
             algorithms cannot run here is an error
  errors     bad command lines and outputs: exit status 2 (1 for run-time failures) and a
             message that names the reason, before any work starts; a failing plot is one line
  empty      n = 0 for every bench (run it under the asan-ubsan preset)
  progress   progress lines on stderr only when stderr is a terminal
  plots      every sweep's plot is written and titled (exit 77, skipped, without matplotlib)

Only the standard library. Exit status: 0 all checks passed, 1 a check failed, 77 skipped.
"""

import argparse
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cli_schema  # noqa: E402

SUMMARY = re.compile(r"^\d+ passed, \d+ failed$")
failures = []


def run(args, timeout=300):
    p = subprocess.run([SCANKIT, *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def expect(cond, what, out=""):
    if cond:
        print(f"ok    {what}")
    else:
        print(f"FAIL  {what}\n{out[-3000:]}")
        failures.append(what)


def has_gpu():
    rc, out, _ = run(["devices"], timeout=120)
    return rc == 0 and "no GPU" not in out


def check_columns(out, names):
    """The words in the check column of the table rows of the algorithms `names`."""
    lines = out.splitlines()
    words = []
    for i, line in enumerate(lines):
        if re.match(r"^algorithm\s", line) and " check" in line:
            col = line.index(" check") + 1
            for row in lines[i + 2:]:
                if not row.split() or row.split()[0] not in names or len(row.rstrip()) <= col:
                    break  # the end of the table: a blank line or a note under it
                words.append(row[col:].split()[0].rstrip(":("))
    return words


TINY_BENCH = ["-n", "3000", "--reps", "1", "--seed", "1"]
TINY_SWEEP = ["--reps", "1", "--seed", "1", "--no-plot"]


def bench_cases():
    return [("scan", []), ("scan", ["--type", "f64", "--op", "max", "--exclusive"]),
            ("compact", []), ("compact", ["--op", "select_flagged"]), ("compact", ["--op", "unique_count"]),
            ("compact", ["--op", "nonzero"]), ("compact", ["--op", "partition", "--selectivity", "0.5"]),
            ("sort", []), ("sort", ["--type", "i64", "--pairs", "--value-bytes", "8"]),
            ("sort", ["--segments", "uniform", "--mean", "16"]),
            ("sort", ["--segments", "powerlaw", "--type", "f64", "--pairs", "--value-bytes", "4", "--descending"]),
            ("sort", ["--segments", "empty", "--type", "i8", "--mean", "3"]), ("sort", ["--segments", "ones"]),
            ("histogram", []), ("histogram", ["--type", "f32", "--bins", "300", "--bins-kind", "range"]),
            ("reduce", []), ("reduce", ["--type", "i64", "--op", "argmax"]), ("reduce", ["--op", "min_max"]),
            ("segments", []), ("segments", ["--op", "scan-flags", "--dist", "powerlaw", "--mean", "4,64"]),
            ("segments", ["--type", "i64", "--op", "reduce-by-key", "--dist", "empty"]),
            ("segments", ["--type", "u32", "--op", "scan-by-key", "--dist", "ones"]),
            ("topk", []), ("topk", ["--type", "i16", "--k", "100", "--smallest", "--path", "radix"]),
            ("topk", ["--type", "f64", "--rows", "30", "--k", "5", "--path", "block"])]


def sweep_cases():
    return [("scan", ["--min-log", "8", "--max-log", "10"]), ("compact", ["--min-log", "8", "--max-log", "10"]),
            ("compact", ["--op", "nonzero", "--min-log", "8", "--max-log", "9"]),
            ("sort", ["--min-log", "8", "--max-log", "10"]),
            ("histogram", ["--over", "bins", "--min-log", "0", "--max-log", "4", "-n", "5000"]),
            ("histogram", ["--over", "size", "--min-log", "8", "--max-log", "10"]),
            ("reduce", ["--min-log", "8", "--max-log", "10"]),
            ("segments", ["--min-log", "8", "--max-log", "10"]),
            ("segments", ["--op", "scan", "--over", "mean", "--min-log", "0", "--max-log", "3", "-n", "5000"]),
            ("topk", ["--min-log", "8", "--max-log", "10"]),
            ("topk", ["--rows", "16", "--k", "4", "--min-log", "8", "--max-log", "10"])]


def run_json(args, path):
    """Runs the CLI, which is to exit 0 and write `path`, JSON valid under cli_schema.py.
    Returns the document (None if not written), stdout, and the command for the messages."""
    rc, out, err = run(args)
    what = "scankit " + " ".join(args[:-2])
    expect(rc == 0, f"{what}: exit 0 (got {rc})", out + err)
    if not path.exists():
        expect(False, f"{what}: wrote {path}", out + err)
        return None, out, what
    doc = json.loads(path.read_text())
    errors = cli_schema.validate(doc)
    expect(not errors, f"{what}: JSON valid", "\n".join(errors))
    return doc, out, what


def group_json():
    for i, (prim, extra) in enumerate(bench_cases()):
        path = WORK / f"bench-{prim}-{i}.json"
        doc, out, what = run_json(["bench", prim, *TINY_BENCH, *extra, "--json", str(path)], path)
        if doc is None:
            continue
        names = {r["algorithm"] for r in doc["rows"]}
        words = check_columns(out, names)
        expect(len(words) == len(doc["rows"]) and all(w in ("PASS", "FAIL", "n/a") for w in words),
               f"{what}: check column {words}", out)
        if prim == "sort" and "--segments" in extra:
            rows = doc["rows"]
            expect(all(r["dist"] == extra[1] and r["segments"] == doc["params"]["segments"] > 0 for r in rows)
                   and {"cpu-parallel", "cpu-serial"} <= names and all(r["check"] == "PASS" for r in rows
                                                                       if r["group"] == "cpu"),
                   f"{what}: the segmented rows, their dist and segment count, the CPU rows PASS", str(rows))
        if prim == "compact" and extra and extra[1] in ("select_flagged", "unique_count", "nonzero"):
            std = [r for r in doc["rows"] if r["algorithm"] == "std"]
            expect(std and std[0]["check"] == "n/a", f"{what}: the std row is n/a", str(std))
    for i, (prim, extra) in enumerate(sweep_cases()):
        prefix = WORK / f"sweep-{prim}-{i}"
        doc, _, what = run_json(["sweep", prim, *TINY_SWEEP, *extra, "--out", str(prefix)], Path(f"{prefix}.json"))
        if doc is not None:
            expect(len({r["x"] for r in doc["rows"]}) >= 2, f"{what}: rows at every point", "")


def group_verify():
    gpu = has_gpu()
    for prim in ("scan", "compact", "sort", "histogram", "reduce", "segments", "topk"):
        args = ["verify", prim, "--cases", "6", "--seed", "1"]
        rc, out, err = run(args)
        lines = out.rstrip("\n").splitlines()
        what = "scankit " + " ".join(args)
        expect(rc == 0, f"{what}: exit 0 (got {rc})", out + err)
        expect(lines and SUMMARY.match(lines[-1]) and not lines[-1].startswith("0 passed"),
               f"{what}: ends with 'N passed, N failed' (got {lines[-1] if lines else ''!r})", out)
    if not gpu:  # GPU algorithms alone without a GPU: nothing can be checked
        for args in (["verify", "sort", "--algo", "gpu"], ["verify", "histogram", "--algo", "adaptive"],
                     ["verify", "scan", "--algo", "decoupled-lookback"]):
            rc, out, err = run([*args, "--cases", "3", "--seed", "1"])
            what = "scankit " + " ".join(args) + " without a GPU"
            if rc == 2 and "unknown" in err:  # a build without CUDA does not know the GPU names
                expect(True, f"{what}: rejected as unknown (CPU-only build)")
                continue
            expect(rc == 1 and "nothing to verify" in err and "passed" not in out,
                   f"{what}: an error, no summary (exit {rc})", out + err)


def group_errors():
    cases = [
        (["frobnicate"], 2, r"unknown command 'frobnicate' \(valid commands: bench, sweep, verify, .*devices"),
        (["bench", "frobnicate"], 2, r"unknown primitive 'frobnicate' for bench \(valid: scan, compact"),
        (["bench", "scan", "-n", "1e12"], 1, r"needs ~.* of host memory"),
        (["bench", "sort", "-n", "1e12"], 1, r"needs ~.* of host memory"),
        (["bench", "compact", "-n", "1e12"], 1, r"needs ~.* of host memory"),
        (["bench", "histogram", "-n", "1e13"], 1, r"needs ~.* of host memory"),
        (["bench", "compact", "--selectivity", "nan"], 2, r"not a number in \[0, 1\]"),
        (["bench", "segments", "-n", "1e12"], 1, r"needs ~.* of host memory"),
        (["bench", "segments", "--op", "sum"], 2, r"--op: sum not in \{reduce,scan,scan-flags,scan-by-key,reduce-by-key\}"),
        (["bench", "segments", "--dist", "zipf"], 2, r"--dist: zipf not in"),
        (["bench", "segments", "--mean", "0"], 2, r"mean segment length '0' must be at least 1"),
        (["bench", "segments", "--mean", "8,x"], 2, r"mean segment length 'x' is not a whole number"),
        (["bench", "segments", "--compare", "thrust"], 2, r"thrust"),
        (["sweep", "segments", "--mean", "8,16"], 2, r"a sweep takes one mean"),
        (["sweep", "segments", "--over", "mean", "--dist", "ones"], 2, r"mean needs --dist uniform, powerlaw or empty"),
        (["sweep", "segments", "--out", "/nonexistent/p"], 2, r"No such file or directory"),
        (["bench", "compact", "--selectivity", "1.5"], 2, r"not a number in \[0, 1\]"),
        (["bench", "topk", "-n", "1000", "--rows", "3"], 2, r"--rows: n = 1000 is not a multiple of 3"),
        (["bench", "topk", "-n", "10", "--k", "11"], 2, r"--k: 11 exceeds the size 10"),
        (["bench", "topk", "--path", "heap"], 2, r"--path: heap not in"),
        (["bench", "topk", "-n", "1e12"], 1, r"needs ~.* of host memory"),
        (["bench", "scan", "--seed", "-1"], 2, r"seed '-1' is not a whole number"),
        (["verify", "sort", "--seed", "x"], 2, r"seed 'x' is not a whole number"),
        (["bench", "sort", "--value-bytes", "8"], 2, r"--value-bytes requires --pairs"),
        (["bench", "sort", "--no-range"], 2, r"--no-range requires --bits"),
        (["bench", "sort", "--segments", "zipf"], 2, r"--segments: zipf not in \{uniform,powerlaw,single,ones,empty\}"),
        (["bench", "sort", "--mean", "8"], 2, r"--mean requires --segments"),
        (["bench", "sort", "--segments", "uniform", "--mean", "0"], 2, r"mean segment length '0' must be at least 1"),
        (["bench", "sort", "--segments", "uniform", "--bits", "8"], 2, r"--bits excludes --segments"),
        (["bench", "sort", "--segments", "uniform", "--pairs", "--value-bytes", "16"], 2,
         r"--segments sorts keys alone or pairs with 4-byte values"),
        (["bench", "sort", "--segments", "single", "--algo", "cpu-radix"], 2, r"'cpu-radix' is not a row of --segments"),
        (["bench", "sort", "--algo", "cpu-parallel"], 2, r"'cpu-parallel' is a row of --segments only"),
        (["bench", "sort", "--segments", "uniform", "-n", "1e12"], 1, r"needs ~.* of host memory"),
        (["bench", "scan", "--json", "/nonexistent/dir/x.json"], 2,
         r"directory '/nonexistent/dir': No such file or directory"),
        (["bench", "histogram", "--json", ""], 2, r"needs a file name"),
        (["bench", "sort", "--json", "/tmp"], 2, r"'/tmp' is a directory"),
        (["sweep", "compact", "--out", "/nonexistent/p"], 2, r"No such file or directory"),
        (["sweep", "sort", "--out", "/nonexistent/p"], 2, r"No such file or directory"),
        (["histogram", "/etc/hostname", "--plot", str(WORK / "x.txt")], 2, r"must end in \.png, \.svg or \.pdf"),
        (["histogram", "/etc/hostname", "--plot", "/nonexistent/x.png"], 2,
         r"directory '/nonexistent': No such file or directory"),
        (["histogram", "/nonexistent-file"], 1, r"cannot open /nonexistent-file: No such file or directory"),
        (["histogram", "/tmp"], 1, r"cannot read /tmp: Is a directory"),
    ]
    for args, code, pattern in cases:
        start = time.monotonic()
        rc, out, err = run(args, timeout=120)
        what = "scankit " + " ".join(repr(a) if a == "" else a for a in args)
        expect(rc == code and re.search(pattern, err) is not None,
               f"{what}: exit {code} and /{pattern}/ on stderr (got {rc})", out + err)
        expect("bad_alloc" not in err and "Traceback" not in err and ".png.json" not in err,
               f"{what}: no bad_alloc, traceback or internal file name", err)
        if code == 2:  # rejected before any work: no table, quickly
            expect("algorithm" not in out and time.monotonic() - start < 20, f"{what}: no work done", out)
    group_plot_failure()


def group_empty():
    for prim, extra in (("scan", []), ("compact", []), ("sort", []), ("sort", ["--segments", "uniform"]),
                        ("histogram", []), ("segments", [])):
        args = ["bench", prim, "-n", "0", "--reps", "1", "--seed", "1", *extra]
        rc, out, err = run(args)
        expect(rc == 0 and "runtime error" not in err and "AddressSanitizer" not in err,
               f"scankit {' '.join(args)}: exit 0, no sanitizer report (got {rc})", out + err)


def run_on_pty(args, timeout=300):
    """Runs scankit with stderr on a pseudo-terminal; returns (exit status, stderr text)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([SCANKIT, *args], stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif p.poll() is not None:
            break
    os.close(master)
    rc = p.wait(timeout=60)
    return rc, b"".join(chunks).decode(errors="replace")


def group_progress():
    cases = [["verify", "scan", "--cases", "4", "--seed", "1"], ["verify", "compact", "--cases", "4", "--seed", "1"],
             ["verify", "sort", "--cases", "4", "--seed", "1"], ["verify", "histogram", "--cases", "4", "--seed", "1"],
             ["sweep", "scan", "--min-log", "8", "--max-log", "9", *TINY_SWEEP, "--out", str(WORK / "p-scan")],
             ["sweep", "sort", "--min-log", "8", "--max-log", "9", *TINY_SWEEP, "--out", str(WORK / "p-sort")],
             ["histogram", "/etc/hostname"]]
    for args in cases:
        what = "scankit " + " ".join(args)
        rc, err = run_on_pty(args)
        expect(rc == 0 and ("[1/" in err or "read ..." in err), f"{what}: progress on a terminal", err)
        rc, out, err = run(args)
        expect(rc == 0 and "[1/" not in err and " ..." not in err, f"{what}: no progress when stderr is not a terminal",
               err)


def group_plots():
    # The CLI picks its own Python ($SCANKIT_PYTHON, the one with matplotlib found at configure
    # time, python3): skipped when none of them has matplotlib.
    rc, out, err = run(["sweep", "scan", "--min-log", "8", "--max-log", "8", "--reps", "1", "--seed", "1",
                        "--out", str(WORK / "probe")])
    if rc != 0 and "matplotlib" in err:
        print("skipped: no matplotlib")
        sys.exit(77)
    for prim, extra in (("scan", []), ("compact", ["--op", "nonzero"]), ("sort", []),
                        ("histogram", ["--over", "size"])):
        prefix = WORK / f"plot-{prim}"
        args = ["sweep", prim, "--min-log", "8", "--max-log", "10", "--reps", "1", "--seed", "1", *extra,
                "--out", str(prefix)]
        rc, out, err = run(args)
        what = "scankit " + " ".join(args)
        expect(rc == 0 and Path(f"{prefix}.png").exists() and Path(f"{prefix}.svg").exists(),
               f"{what}: PREFIX.png and PREFIX.svg (exit {rc})", out + err)
        svg = Path(f"{prefix}.svg").read_text(errors="replace") if Path(f"{prefix}.svg").exists() else ""
        title = re.search(r"<dc:title>(.*?)</dc:title>", svg, re.S)
        expect(title and f"scankit sweep {prim}" in title.group(1) and "median of 1 runs" in title.group(1)
               and "GB/s" in title.group(1), f"{what}: the title names the primitive, measure and runs",
               title.group(1) if title else svg[:500])
    rc, out, err = run(["histogram", "/etc/hostname", "--plot", str(WORK / "bytes.pdf")])
    expect(rc == 0 and (WORK / "bytes.pdf").exists(), f"scankit histogram FILE --plot x.pdf (exit {rc})", out + err)


def group_plot_failure():
    """A plot that cannot be drawn is one line on stderr, and the exit status says so."""
    env = dict(os.environ)
    os.environ["SCANKIT_PLOT_SCRIPT"] = str(WORK / "missing-plot-script.py")
    try:
        for prim in ("scan", "sort"):
            prefix = WORK / f"plot-fail-{prim}"
            rc, out, err = run(["sweep", prim, "--min-log", "8", "--max-log", "8", "--reps", "1", "--out", str(prefix),
                                "--seed", "1"])
            lines = [line for line in err.splitlines() if line.strip()]
            expect(rc == 1 and len(lines) == 1 and lines[0].startswith("scankit: error: no plot:")
                   and Path(f"{prefix}.json").exists(),
                   f"sweep {prim} with a failing plot: one error line, the JSON written, exit 1 (got {rc}: {lines})", err)
    finally:
        os.environ.clear()
        os.environ.update(env)


def main():
    global SCANKIT, WORK
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scankit", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("group", choices=["json", "verify", "errors", "empty", "progress", "plots"])
    a = ap.parse_args()
    SCANKIT = os.path.abspath(a.scankit)
    WORK = Path(a.work) / a.group
    WORK.mkdir(parents=True, exist_ok=True)
    os.chdir(WORK)
    globals()["group_" + a.group]()
    print(f"\n{len(failures)} check(s) failed" if failures else "\nall checks passed")
    return 1 if failures else 0


SCANKIT = WORK = None

if __name__ == "__main__":
    sys.exit(main())
