"""Helpers shared by tools/perf-report and its sections: reading JSON, naming sizes and types,
formatting times and Markdown tables."""
import json
from pathlib import Path

TYPES = {"i8": "int8", "u8": "uint8", "i16": "int16", "u16": "uint16", "i32": "int32", "u32": "uint32",
         "i64": "int64", "u64": "uint64", "f32": "float", "f64": "double"}
# Header cells whose column holds numbers (right-aligned).
NUMERIC_HEADERS = ("scankit", "CUB", "vs CUB", "% of copy", "% of read", "% of floor", "% of flat")


def load_json(path):
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None


def pick(rows, key, names):
    """The first row whose `key` is one of `names`, in the order of `names`."""
    return next((r for name in names for r in rows if r.get(key) == name), None)


def size_text(n):
    return f"2^{n.bit_length() - 1}" if n > 0 and n & (n - 1) == 0 else f"{n:,}"


def gib_text(nbytes):
    return f" ({nbytes // 2**30} GiB)" if nbytes >= 2**30 and nbytes % 2**30 == 0 else ""


def ms_text(v):
    """Four significant digits, trailing zeros kept: 0.7395 ms, 1.580 ms, 15.08 ms."""
    return "n/a" if v is None else f"{v:,.0f} ms" if v >= 1000 else f"{v:#.4g} ms"


def md_table(header, rows):
    align = ["---:" if h in NUMERIC_HEADERS else "---" for h in header]
    return ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"] + ["| " + " | ".join(r) + " |" for r in rows]
