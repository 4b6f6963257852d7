"""The JSON schema of every `scankit bench` and `scankit sweep` document (docs/CLI.md), and a
validator for it, in the standard library only.

    python3 tests/cli/cli_schema.py FILE.json...   # validates each file; exit status 1 on errors
"""

import json
import sys

PRIMITIVES = ("scan", "compact", "sort", "histogram", "reduce", "segments", "topk")
CHECKS = ("PASS", "FAIL", "n/a")
GROUPS = ("gpu", "baseline", "cpu")

NUMBER = "number"
NUMBER_OR_NULL = "number|null"
INT = "int"
STR = "str"
BOOL = "bool"
DICT = "dict"
LIST_OF_NUMBERS = "list[number]"

# The keys of the document, of `params`, of `summary` and of every row, with their types.
DOCUMENT = {"tool": STR, "schema_version": INT, "version": STR, "build": STR, "command": STR,
            "primitive": STR, "kind": STR, "date": STR, "system": DICT, "params": DICT, "rows": "list",
            "summary": DICT, "ok": BOOL}
SWEEP_DOCUMENT = {"over": STR}
PARAMS = {"type": STR, "reps": INT, "seed": INT, "gbps": STR}
BENCH_PARAMS = {"n": INT}
SWEEP_PARAMS = {"over": STR, "min_log": INT, "max_log": INT}
SUMMARY = {"passed": INT, "failed": INT, "not_applicable": INT}
SYSTEM = {"gpu": "dict|null", "cpu": DICT, "built_with_cuda": BOOL, "gpu_count": INT}
ROW = {"algorithm": STR, "group": STR, "x": INT, "n": INT, "type": STR, "ms": NUMBER_OR_NULL,
       "samples_ms": LIST_OF_NUMBERS, "gbps": NUMBER_OR_NULL, "pct_of_copy": NUMBER_OR_NULL,
       "vs_cub": NUMBER_OR_NULL, "copy_ms": NUMBER_OR_NULL, "check": STR, "message": STR}
# Keys a primitive adds to its rows (documented in docs/CLI.md); any others are an error, so
# that the docs and the output stay in step.
ROW_EXTRAS = {
    "scan": {"block_size", "with_copies_ms", "with_copies_samples_ms", "with_copies_pinned_ms",
             "with_copies_pinned_samples_ms", "vs_cpu_serial", "workspace_bytes"},
    "compact": {"op", "count", "moved_bytes", "block_size", "with_copies_ms", "with_copies_samples_ms", "vs_std",
                "workspace_bytes", "tile"},
    "sort": {"value_bytes", "bits", "descending", "gkeys_per_s", "workspace_bytes_per_key",
             # bench sort --segments
             "dist", "mean", "segments", "flat_ms", "pct_of_flat", "vs_cpu_serial"},
    "histogram": {"bins", "plan", "gsamples_per_s", "read_ms", "pct_of_read", "vs_cpu_serial"},
    "reduce": {"read_ms", "pct_of_read"},
    "segments": {"op", "dist", "mean", "segments", "read_ms", "pct_of_read", "workspace_bytes"},
    "topk": {"k", "matrix_rows", "largest", "path", "workspace_bytes", "read_ms", "pct_of_read"},
}


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def type_ok(v, t):
    if t == NUMBER:
        return is_number(v)
    if t == NUMBER_OR_NULL:
        return v is None or is_number(v)
    if t == INT:
        return isinstance(v, int) and not isinstance(v, bool)
    if t == STR:
        return isinstance(v, str)
    if t == BOOL:
        return isinstance(v, bool)
    if t == DICT:
        return isinstance(v, dict)
    if t == "dict|null":
        return v is None or isinstance(v, dict)
    if t == "list":
        return isinstance(v, list)
    if t == LIST_OF_NUMBERS:
        return isinstance(v, list) and all(is_number(x) for x in v)
    raise ValueError(t)


def check_keys(obj, spec, where, errors):
    for key, t in spec.items():
        if key not in obj:
            errors.append(f"{where}: missing key '{key}'")
        elif not type_ok(obj[key], t):
            errors.append(f"{where}: '{key}' is {obj[key]!r}, not {t}")


def validate(doc):
    """The list of the document's departures from the schema (empty: valid)."""
    errors = []
    if not isinstance(doc, dict):
        return ["the document is not a JSON object"]
    check_keys(doc, DOCUMENT, "document", errors)
    if errors:
        return errors
    if doc["tool"] != "scankit":
        errors.append(f"tool is {doc['tool']!r}")
    if doc["schema_version"] != 1:
        errors.append(f"schema_version is {doc['schema_version']}")
    prim, kind = doc["primitive"], doc["kind"]
    if prim not in PRIMITIVES:
        errors.append(f"primitive is {prim!r}")
    if kind not in ("bench", "sweep"):
        errors.append(f"kind is {kind!r}")
    if doc["command"] != f"{kind} {prim}":
        errors.append(f"command is {doc['command']!r}, not '{kind} {prim}'")
    check_keys(doc["system"], SYSTEM, "system", errors)
    check_keys(doc["params"], PARAMS, "params", errors)
    check_keys(doc["params"], BENCH_PARAMS if kind == "bench" else SWEEP_PARAMS, "params", errors)
    if kind == "sweep":
        check_keys(doc, SWEEP_DOCUMENT, "document", errors)
    check_keys(doc["summary"], SUMMARY, "summary", errors)
    if not doc["rows"]:
        errors.append("no rows")
    counts = {"PASS": 0, "FAIL": 0, "n/a": 0}
    for i, row in enumerate(doc["rows"]):
        where = f"rows[{i}]"
        if not isinstance(row, dict):
            errors.append(f"{where} is not an object")
            continue
        check_keys(row, ROW, where, errors)
        extra = set(row) - set(ROW) - ROW_EXTRAS.get(prim, set())
        if extra:
            errors.append(f"{where}: undocumented keys {sorted(extra)}")
        if row.get("group") not in GROUPS:
            errors.append(f"{where}: group {row.get('group')!r}")
        check = row.get("check")
        if check not in CHECKS:
            errors.append(f"{where}: check {check!r} is not one of {CHECKS}")
        else:
            counts[check] += 1
        if check == "FAIL" and not row.get("message"):
            errors.append(f"{where}: a FAIL without a message")
        if kind == "bench" and isinstance(doc["params"].get("n"), int):
            if row.get("n") != doc["params"]["n"] or row.get("x") != row.get("n"):
                errors.append(f"{where}: n/x {row.get('n')}/{row.get('x')} differ from params.n {doc['params']['n']}")
        if row.get("type") != doc["params"].get("type"):
            errors.append(f"{where}: type {row.get('type')!r} differs from params.type")
    s = doc["summary"]
    if (s.get("passed"), s.get("failed"), s.get("not_applicable")) != (counts["PASS"], counts["FAIL"], counts["n/a"]):
        errors.append(f"summary {s} does not count the rows' checks {counts}")
    if doc["ok"] != (counts["FAIL"] == 0 and counts["PASS"] > 0):
        errors.append(f"ok is {doc['ok']} with {counts}")
    return errors


def main(paths):
    bad = 0
    for p in paths:
        with open(p, encoding="utf-8") as f:
            errors = validate(json.load(f))
        for e in errors:
            print(f"{p}: {e}")
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
