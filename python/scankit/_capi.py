"""The native library (libscankit_capi.so, a plain C ABI) through ctypes.

The library has no Python headers in it, so one build serves every Python 3 version. It lies
next to this file: ``pip install ./python`` puts it there, and a CMake build stages a ready
package in ``<build>/python/scankit``.
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

_i = ctypes.c_int
_i64 = ctypes.c_int64
_u64 = ctypes.c_uint64
_p = ctypes.c_void_p
_s = ctypes.c_char_p
_pi64 = ctypes.POINTER(ctypes.c_int64)
_up = ctypes.c_size_t  # uintptr_t

_protos = {
    "sk_version": (_s, []),
    "sk_built_with_cuda": (_i, []),
    "sk_device_count": (_i, []),
    "sk_last_error": (_s, []),
    "sk_algorithms": (_s, [_s]),
    "sk_scan_workspace": (_i, [_i, _i, _i64, _i64, _i64, _s, _pi64]),
    "sk_scan": (_i, [_p]),
    "sk_time_scan": (_i, [_i, _i, _i64, _i, _up, ctypes.POINTER(ctypes.c_double)]),
    "sk_sort_workspace": (_i, [_i, _i, _i64, _i, _i, _s, _pi64]),
    "sk_sort": (_i, [_i, _i, _p, _p, _p, _p, _i, _i, _i64, _i, _s, _p, _i64, _up]),
    "sk_compact_workspace": (_i, [_i, _i64, _i, _s, _pi64]),
    "sk_select_flagged": (_i, [_i, _i, _p, _p, _p, _i64, _p, _s, _p, _i64, _up]),
    "sk_select_if": (_i, [_i, _i, _i, _p, _i, _p, _p, _i64, _p, _s, _p, _i64, _up]),
    "sk_partition": (_i, [_i, _i, _i, _p, _i, _p, _p, _i64, _p, _s, _p, _i64, _up]),
    "sk_nonzero": (_i, [_i, _i, _p, _p, _i64, _p, _s, _p, _i64, _up]),
    "sk_unique": (_i, [_i, _i, _p, _p, _p, _i64, _i, _p, _s, _p, _i64, _up]),
    "sk_read_count": (_i, [_i, _p, _up, _pi64]),
    "sk_fill_tail": (_i, [_i, _i, _p, _p, _i64, _p, _up]),
    "sk_histogram_even": (_i, [_i, _i, _p, _i64, _p, _i64, ctypes.c_double, ctypes.c_double, _i, _s, _up]),
    "sk_histogram_edges": (_i, [_i, _i, _p, _i64, _p, _p, _i64, _s, _up]),
    "sk_bincount": (_i, [_i, _i, _p, _i64, _p, _i64, _s, _up]),
    "sk_bincount_capped": (_i, [_i, _i, _p, _i64, _p, _i64, _s, _up, _pi64]),
}
# The entries by their short names ("scan" for sk_scan), prototypes set once: a call looks its
# function up in this dict and nothing else.
_fns = {}
for _name, (_res, _args) in _protos.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
    _fns[_name[3:]] = _f


def call(name, *args):
    """Calls sk_<name>(*args) and raises the matching Python exception on failure."""
    status = _fns[name](*args)
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


# sk_scan takes its arguments as one block (sk_scan_args in capi.h): one ctypes conversion
# instead of fourteen. Each thread packs into its own block, since ctypes lets other threads
# run during the call.
_SCAN_ARGS = struct.Struct("<4q3Q3q2QqQQ")
SCAN_KEPT_WORKSPACE = 1
_blocks = threading.local()


def scan(device, dtype, op, exclusive, init, x, out, outer, length, inner, algorithm, workspace, workspace_bytes,
         stream, flags=0):
    """sk_scan: every pointer and the stream as an int (0: none); algorithm as bytes (b"": the
    default). With flags=SCAN_KEPT_WORKSPACE it returns False, having queued nothing, when the
    stream is capturing a CUDA graph (else None)."""
    block = getattr(_blocks, "scan", None)
    if block is None:
        buf = (ctypes.c_int64 * (_SCAN_ARGS.size // 8))()
        block = _blocks.scan = (buf, ctypes.addressof(buf))
    name = ctypes.create_string_buffer(algorithm) if algorithm else None  # alive until the call returns
    _SCAN_ARGS.pack_into(block[0], 0, device, dtype, op, exclusive, init, x, out, outer, length, inner,
                         0 if name is None else ctypes.addressof(name), workspace, workspace_bytes, stream, flags)
    status = _fns["scan"](block[1])
    if status != OK:
        if status == ECAPTURING:
            return False
        _raise(status)


_workspace_cache = {}


def workspace_bytes(name, *args):
    """Calls sk_<name>_workspace(*args, &bytes) and returns bytes, remembered per arguments:
    repeated calls on arrays of one shape skip the query (it depends on nothing else)."""
    key = (name,) + args
    cached = _workspace_cache.get(key)
    if cached is not None:
        return cached
    out = ctypes.c_int64(0)
    call(name + "_workspace", *args, ctypes.byref(out))
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


def time_scan(device, dtype, n, calls, stream):
    """Mean microseconds of one C++ call of the device scan (an inclusive sum of n items of
    `dtype` name) over `calls` calls queued on `stream` (sk_time_scan)."""
    out = ctypes.c_double(0)
    call("time_scan", device, DTYPE_CODES[dtype], n, calls, stream, ctypes.byref(out))
    return out.value
