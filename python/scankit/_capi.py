"""The native library (libscankit_capi.so, a plain C ABI) through ctypes.

The library has no Python headers in it, so one build serves every Python 3 version. It lies
next to this file: ``pip install ./python`` puts it there, and a CMake build stages a ready
package in ``<build>/python/scankit``.

Every entry of more than a pointer or two takes one argument block (capi.h's sk_<name>_args):
ARGS holds them as ctypes Structures, and call() packs a block with one struct.pack_into, so
ctypes converts one pointer per call. python/tests/test_capi_abi.py compares the prototypes and
blocks here with capi.h.
"""

import ctypes
import os
import struct
import threading

_here = os.path.dirname(os.path.abspath(__file__))
_path = os.path.join(_here, "libscankit_capi.so")

try:
    lib = ctypes.CDLL(_path)
except OSError as e:  # pragma: no cover - depends on how the package was built
    raise ImportError(
        f"scankit: cannot load its native library {_path} ({e}). Install the package with "
        "`pip install ./python` from the scankit repository, or build it with CMake and put "
        "<build>/python on PYTHONPATH."
    ) from e

# sk_status codes (python/src/capi.h)
OK, EVALUE, ETYPE, ENOMEM, ENODEVICE, ECUDA, EOTHER, ECAPTURING = range(8)

# sk_dtype codes
DTYPE_CODES = {
    "int8": 1, "int16": 2, "int32": 3, "int64": 4,
    "uint8": 5, "uint16": 6, "uint32": 7, "uint64": 8,
    "float16": 9, "bfloat16": 10, "float32": 11, "float64": 12,
}
OP_CODES = {"sum": 0, "prod": 1, "min": 2, "max": 3, "and": 4, "or": 5, "xor": 6}
PRED_NONZERO, PRED_LESS, PRED_GREATER = 0, 1, 2
# sk_reduce's operators beyond OP_CODES (capi.h's SK_REDUCE_*)
REDUCE_ARGMIN, REDUCE_ARGMAX, REDUCE_MIN_MAX = 16, 17, 18

_i = ctypes.c_int
_i64 = ctypes.c_int64
_u64 = ctypes.c_uint64
_f64 = ctypes.c_double
_p = ctypes.c_void_p
_s = ctypes.c_char_p
_pi64 = ctypes.POINTER(ctypes.c_int64)


def _args(name, *groups):
    """The ctypes Structure of capi.h's `sk_<name>_args`: groups of (C type, field names)."""
    fields = [(f, t) for t, names in groups for f in names.split()]
    return type(f"sk_{name}_args", (ctypes.Structure,), {"_fields_": fields})


_ADDR = "init in out algorithm workspace stream flags"
ARGS = {
    "scan": _args("scan", (_i64, "device dtype op exclusive"), (_u64, "init in out"), (_i64, "outer len inner"),
                  (_u64, "algorithm workspace"), (_i64, "workspace_bytes"), (_u64, "stream flags")),
    "sort": _args("sort", (_i64, "device dtype"), (_u64, "keys_in keys_out values_in values_out"),
                  (_i64, "value_bytes indices n descending"), (_u64, "algorithm workspace"),
                  (_i64, "workspace_bytes"), (_u64, "stream")),
    "sort_rows": _args("sort_rows", (_i64, "device dtype"), (_u64, "keys_in keys_out indices_out"),
                       (_i64, "rows cols descending"), (_u64, "workspace"), (_i64, "workspace_bytes"), (_u64, "stream")),
    "topk": _args("topk", (_i64, "device dtype"), (_u64, "in values_out indices_out"), (_i64, "rows cols k largest"),
                  (_u64, "workspace"), (_i64, "workspace_bytes"), (_u64, "stream")),
    "compact_workspace": _args("compact_workspace", (_i64, "device n item_bytes"), (_u64, "algorithm")),
    "select_flagged": _args("select_flagged", (_i64, "device item_bytes"), (_u64, "in flags out"), (_i64, "n"),
                            (_u64, "count algorithm workspace"), (_i64, "workspace_bytes"), (_u64, "stream")),
    "select_if": _args("select_if", (_i64, "device dtype pred"), (_u64, "threshold"), (_i64, "remove"),
                       (_u64, "in out"), (_i64, "n"), (_u64, "count algorithm workspace"), (_i64, "workspace_bytes"),
                       (_u64, "stream")),
    "partition": _args("partition", (_i64, "device dtype pred"), (_u64, "threshold"), (_i64, "stable"),
                       (_u64, "in out"), (_i64, "n"), (_u64, "count algorithm workspace"), (_i64, "workspace_bytes"),
                       (_u64, "stream")),
    "nonzero": _args("nonzero", (_i64, "device dtype"), (_u64, "in indices"), (_i64, "n"),
                     (_u64, "count algorithm workspace"), (_i64, "workspace_bytes"), (_u64, "stream")),
    "unique": _args("unique", (_i64, "device dtype"), (_u64, "in values counts"), (_i64, "n equal_nan"),
                    (_u64, "count algorithm workspace"), (_i64, "workspace_bytes"), (_u64, "stream")),
    "read_count": _args("read_count", (_i64, "device"), (_u64, "count stream")),
    "fill_tail": _args("fill_tail", (_i64, "device item_bytes"), (_u64, "out count"), (_i64, "size"),
                       (_u64, "fill stream")),
    "histogram_even": _args("histogram_even", (_i64, "device dtype"), (_u64, "samples"), (_i64, "n"),
                            (_u64, "counts"), (_i64, "bins"), (_f64, "lower upper"), (_i64, "mode"),
                            (_u64, "algorithm stream")),
    "histogram_edges": _args("histogram_edges", (_i64, "device dtype"), (_u64, "samples"), (_i64, "n"),
                             (_u64, "counts edges"), (_i64, "num_edges"), (_u64, "algorithm stream")),
    "bincount": _args("bincount", (_i64, "device dtype"), (_u64, "samples"), (_i64, "n"), (_u64, "counts"),
                      (_i64, "bins"), (_u64, "algorithm stream")),
    "bincount_capped": _args("bincount_capped", (_i64, "device dtype"), (_u64, "samples"), (_i64, "n"),
                             (_u64, "counts"), (_i64, "capacity"), (_u64, "algorithm stream summary")),
    "reduce": _args("reduce", (_i64, "device dtype op"), (_u64, "in"), (_i64, "n"), (_u64, "out workspace"),
                    (_i64, "workspace_bytes"), (_u64, "stream")),
    "segments_workspace": _args("segments_workspace", (_i64, "device n n_segments value_bytes")),
    "segmented_reduce": _args("segmented_reduce", (_i64, "device dtype op mean"), (_u64, "in"), (_i64, "n"),
                              (_u64, "offsets"), (_i64, "n_segments"), (_u64, "init empty out"), (_i64, "check"),
                              (_u64, "workspace"), (_i64, "workspace_bytes"), (_u64, "stream")),
    "segmented_scan": _args("segmented_scan", (_i64, "device dtype op exclusive"), (_u64, "init in out"),
                            (_i64, "n"), (_u64, "offsets"), (_i64, "n_segments"), (_u64, "flags"), (_i64, "check"),
                            (_u64, "workspace"), (_i64, "workspace_bytes"), (_u64, "stream")),
    "scan_by_key": _args("scan_by_key", (_i64, "device dtype op exclusive"), (_u64, "init keys"), (_i64, "key_bytes"),
                         (_u64, "in out"), (_i64, "n"), (_u64, "workspace"), (_i64, "workspace_bytes"),
                         (_u64, "stream")),
    "reduce_by_key": _args("reduce_by_key", (_i64, "device dtype op"), (_u64, "keys"), (_i64, "key_bytes"),
                           (_u64, "in"), (_i64, "n"), (_u64, "unique_keys aggregates count workspace"),
                           (_i64, "workspace_bytes"), (_u64, "stream")),
}

# Prototypes as capi.h declares them (python/tests/test_capi_abi.py compares the two). An
# argument block is declared by its Structure and passed as its address.
_protos = {
    "sk_version": (_s, []),
    "sk_built_with_cuda": (_i, []),
    "sk_device_count": (_i, []),
    "sk_last_error": (_s, []),
    "sk_algorithms": (_s, [_s]),
    "sk_scan_workspace": (_i, [ARGS["scan"], _pi64]),
    "sk_scan": (_i, [ARGS["scan"]]),
    "sk_sort_workspace": (_i, [ARGS["sort"], _pi64]),
    "sk_sort": (_i, [ARGS["sort"]]),
    "sk_sort_rows_workspace": (_i, [ARGS["sort_rows"], _pi64]),
    "sk_sort_rows": (_i, [ARGS["sort_rows"]]),
    "sk_topk_workspace": (_i, [ARGS["topk"], _pi64]),
    "sk_topk": (_i, [ARGS["topk"]]),
    "sk_compact_workspace": (_i, [ARGS["compact_workspace"], _pi64]),
    "sk_select_flagged": (_i, [ARGS["select_flagged"]]),
    "sk_select_if": (_i, [ARGS["select_if"]]),
    "sk_partition": (_i, [ARGS["partition"]]),
    "sk_nonzero": (_i, [ARGS["nonzero"]]),
    "sk_unique": (_i, [ARGS["unique"]]),
    "sk_read_count": (_i, [ARGS["read_count"], _pi64]),
    "sk_fill_tail": (_i, [ARGS["fill_tail"]]),
    "sk_histogram_even": (_i, [ARGS["histogram_even"]]),
    "sk_histogram_edges": (_i, [ARGS["histogram_edges"]]),
    "sk_bincount": (_i, [ARGS["bincount"]]),
    "sk_bincount_capped": (_i, [ARGS["bincount_capped"]]),
    "sk_reduce_workspace": (_i, [ARGS["reduce"], _pi64]),
    "sk_reduce": (_i, [ARGS["reduce"]]),
    "sk_segments_workspace": (_i, [ARGS["segments_workspace"], _pi64]),
    "sk_segmented_reduce": (_i, [ARGS["segmented_reduce"]]),
    "sk_segmented_scan": (_i, [ARGS["segmented_scan"]]),
    "sk_scan_by_key": (_i, [ARGS["scan_by_key"]]),
    "sk_reduce_by_key": (_i, [ARGS["reduce_by_key"]]),
}
_CODES = {_i64: "q", _u64: "Q", _f64: "d"}


class _Entry:
    """One C entry: the function, and for an entry taking an argument block, the block's
    packing (one struct.pack_into, then one pointer for ctypes to convert)."""

    __slots__ = ("fn", "pack", "fields", "addresses", "block")

    def __init__(self, fn, block):
        self.fn = fn
        self.block = block
        if block is None:
            self.pack = self.fields = self.addresses = None
            return
        self.fields = tuple(f for f, _ in block._fields_)
        self.pack = struct.Struct("=" + "".join(_CODES[t] for _, t in block._fields_)).pack_into
        self.addresses = tuple(t is _u64 for _, t in block._fields_)


# The entries by their short names ("scan" for sk_scan), prototypes set once.
_fns = {}
_entries = {}
for _name, (_res, _params) in _protos.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _blk = _params[0] if _params and isinstance(_params[0], type) and issubclass(_params[0], ctypes.Structure) \
        else None
    _f.argtypes = [_p if isinstance(t, type) and issubclass(t, ctypes.Structure) else t for t in _params]
    _fns[_name[3:]] = _f
    _entries[_name[3:]] = _Entry(_f, _blk)

# Each thread packs into blocks of its own: ctypes lets other threads run during a call.
_blocks = threading.local()

# Algorithm names as NUL-terminated strings that live as long as the module: a block holds the
# address. A name beyond the cache's room lives until the thread's next such name.
_names = {b"": 0}
_NAMES_ROOM = 256


def algorithm_address(name):
    """The address of the NUL-terminated bytes `name` (0 for b"" or None)."""
    if not name:
        return 0
    a = _names.get(name)
    if a is None:
        buf = ctypes.create_string_buffer(name)
        a = ctypes.addressof(buf)
        if len(_names) < _NAMES_ROOM:
            _names[name] = a
            _names[(name,)] = buf  # keeps the buffer alive
        else:
            _blocks.name = buf
    return a


def fields(name):
    """The field names of sk_<name>'s argument block, in capi.h's order."""
    return _entries[name].fields


def address(v):
    """An address field's value: an int as it is, None as 0, bytes as an algorithm name's
    address, a ctypes object's address, else the host buffer of a NumPy array."""
    if v is None:
        return 0
    if isinstance(v, int):
        return v
    if isinstance(v, bytes):
        return algorithm_address(v)
    if isinstance(v, ctypes.c_void_p):
        return v.value or 0
    if isinstance(v, (ctypes._SimpleCData, ctypes.Array, ctypes.Structure)):
        return ctypes.addressof(v)
    return v.ctypes.data


def _hold(name):
    """This thread's (block, address) for sk_<name>."""
    block = _entries[name].block()
    held = (block, ctypes.addressof(block))
    setattr(_blocks, name, held)
    return held


def _invoke(name, values):
    """sk_<name>'s status: the block's fields packed from the first values (in the block's field
    order), the rest passed after the block's address."""
    e = _entries.get(name)
    if e is None or e.block is None:
        return _fns[name](*values)
    held = getattr(_blocks, name, None)
    if held is None:
        held = _hold(name)
    k = len(e.fields)
    head = values if len(values) == k else values[:k]
    try:
        e.pack(held[0], 0, *head)
    except struct.error:
        # Something other than ints in an address field (None, a name, a host buffer).
        e.pack(held[0], 0, *[address(v) if a else v for v, a in zip(head, e.addresses)])
    if len(values) == k:
        return e.fn(held[1])
    return e.fn(held[1], *values[k:])


def call(name, *values):
    """Calls sk_<name> and raises the matching Python exception on failure. An entry taking an
    argument block takes its fields, in capi.h's order, then any further arguments."""
    status = _invoke(name, values)
    if status != OK:
        _raise(status)


def _raise(status):
    raise_status(status, lib.sk_last_error())


def raise_status(status, message):
    """Raises the Python exception of a failed call's status code (its message as bytes)."""
    message = message.decode("utf-8", "replace")
    if status == EVALUE:
        raise ValueError(message)
    if status == ETYPE:
        raise TypeError(message)
    if status == ENOMEM:
        raise MemoryError(message)
    raise RuntimeError(message)


SCAN_KEPT_WORKSPACE = 1
_scan_pack, _scan_fn = _entries["scan"].pack, _entries["scan"].fn


def scan(device, dtype, op, exclusive, init, x, out, outer, length, inner, algorithm, workspace, workspace_bytes,
         stream, flags=0):
    """sk_scan: every pointer and the stream as an int (0: none); algorithm as bytes (b"": the
    default). With flags=SCAN_KEPT_WORKSPACE it returns False, having queued nothing, when the
    stream is capturing a CUDA graph (else None)."""
    # The small calls' path: sk_scan's block packed here, without _invoke's generality.
    held = getattr(_blocks, "scan", None)
    if held is None:
        held = _hold("scan")
    try:
        _scan_pack(held[0], 0, device, dtype, op, exclusive, init, x, out, outer, length, inner, algorithm, workspace,
                   workspace_bytes, stream, flags)
    except struct.error:
        return scan(device, dtype, op, exclusive, address(init), address(x), address(out), outer, length, inner,
                    address(algorithm), address(workspace), workspace_bytes, stream, flags)
    status = _scan_fn(held[1])
    if status != OK:
        if status == ECAPTURING:
            return False
        _raise(status)


# The fields a workspace query reads, in the order workspace_bytes takes them.
_WORKSPACE_FIELDS = {
    "scan": ("device", "dtype", "outer", "len", "inner", "algorithm"),
    "sort": ("device", "dtype", "n", "value_bytes", "indices", "algorithm"),
    "topk": ("device", "dtype", "rows", "cols", "k"),
    "sort_rows": ("device", "dtype", "rows", "cols", "indices_out"),
    "compact": ("device", "n", "item_bytes", "algorithm"),
    "reduce": ("device", "dtype", "op"),
    "segments": ("device", "n", "n_segments", "value_bytes"),
}
_WORKSPACE_ENTRY = {"scan": "scan_workspace", "sort": "sort_workspace", "sort_rows": "sort_rows_workspace",
                    "topk": "topk_workspace",
                    "compact": "compact_workspace", "reduce": "reduce_workspace", "segments": "segments_workspace"}
_WORKSPACE_BLOCK = {"scan": "scan", "sort": "sort", "sort_rows": "sort_rows", "topk": "topk", "compact": "compact_workspace", "reduce": "reduce",
                    "segments": "segments_workspace"}
_workspace_cache = {}


def workspace_bytes(name, *args):
    """sk_<name>_workspace's bytes for the fields of _WORKSPACE_FIELDS[name] (in that order),
    remembered per arguments: repeated calls on arrays of one shape skip the query (it depends
    on nothing else)."""
    key = (name,) + args
    cached = _workspace_cache.get(key)
    if cached is not None:
        return cached
    block = ARGS[_WORKSPACE_BLOCK[name]]()
    for f, v in zip(_WORKSPACE_FIELDS[name], args):
        setattr(block, f, algorithm_address(v) if f == "algorithm" else v)
    out = ctypes.c_int64(0)
    status = _fns[_WORKSPACE_ENTRY[name]](ctypes.addressof(block), ctypes.byref(out))
    if status != OK:
        _raise(status)
    if len(_workspace_cache) > 4096:
        _workspace_cache.clear()
    _workspace_cache[key] = out.value
    return out.value


def version():
    return lib.sk_version().decode()


def built_with_cuda():
    return bool(lib.sk_built_with_cuda())


def device_count():
    return int(lib.sk_device_count())


def algorithm_names(primitive):
    names = lib.sk_algorithms(primitive.encode())
    if names is None:
        raise ValueError(
            f"unknown primitive {primitive!r}; choose from 'scan', 'sort', 'compact', 'histogram'"
        )
    return names.decode().split(",")


def algo(name):
    """An algorithm argument for the C ABI ("" for the default)."""
    if name is None:
        return b""
    if not isinstance(name, str):
        raise TypeError(f"algorithm must be a string, not {type(name).__name__}")
    return name.encode()
