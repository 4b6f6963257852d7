"""Arrays to C calls, in one place: run() makes an entry's argument block from a primitive's
arrays and values (data pointers, the device and the caller's stream, the algorithm's name,
workspace from the caller's allocator or the stream's kept buffer), and compaction_result()
turns a compaction's output and count into the result. The primitives' modules say which
entry to call with what; the small calls' fast paths use the same kept workspace and entries
(shape_entry). Also the argument helpers every primitive shares (dtype names, axes, sizes)."""

import ctypes
import operator
import threading

import numpy as np

from . import _capi
from ._arrays import _ops_of_type, wrap


def dtype_name(dtype):
    """A dtype argument (NumPy dtype or name, torch dtype, Python type) as a NumPy-style name."""
    if dtype is None:
        return None
    mod = type(dtype).__module__
    if mod.startswith("torch"):
        return str(dtype).replace("torch.", "")
    if isinstance(dtype, str) and dtype == "bfloat16":
        return dtype
    try:
        return np.dtype(dtype).name
    except TypeError:
        raise TypeError(f"not a dtype: {dtype!r}") from None


def normalize_axis(axis, ndim, what):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"{what}: axis must be an integer or None, not {type(axis).__name__}") from None
    if not -ndim <= axis < ndim:
        raise ValueError(f"{what}: axis {axis} is out of bounds for an array of {ndim} dimensions")
    return axis % ndim


def prod(shape):
    n = 1
    for s in shape:
        n *= int(s)
    return n


def flat(a):
    """The input as a C-contiguous 1-D array of its library."""
    x = a.x
    if not a.ops.is_contiguous(x):
        x = a.ops.contiguous(x)
    return a.ops.reshape(x, (a.size,))


def stream(a):
    """The caller's current stream on a's device (0 on the CPU)."""
    return a.ops.stream(a.device) if a.device >= 0 else 0


def new_workspace(a, nbytes):
    """Device workspace from the caller's allocator (None when nothing is needed)."""
    if nbytes <= 0:
        return None
    return a.ops.empty((int(nbytes),), "uint8", a.device)


# Workspaces up to this size are kept and reused (reusable_workspace): a small call then
# allocates nothing but its result.
_KEEP_BYTES = 8 << 20
_kept = threading.local()


def reusable_workspace(a, nbytes, stream_handle):
    """Device workspace for a call that uses it only while its own kernels run: one buffer per
    thread, library, device and stream, of up to _KEEP_BYTES, reused by later calls. Calls on
    one stream run in order, so a buffer is never in use by two of them at once; one per thread
    keeps two threads sharing a stream from interleaving a call's clearing of it with another's
    kernels. Larger workspaces, and calls during a CUDA graph capture (whose replays may run
    beside later calls), get a fresh one from the caller's allocator."""
    if nbytes <= 0:
        return None
    if nbytes > _KEEP_BYTES or a.ops.capturing():
        return new_workspace(a, nbytes)
    cache = getattr(_kept, "buffers", None)
    if cache is None:
        cache = _kept.buffers = {}
    key = (a.ops.name, a.device, stream_handle)
    buf = cache.get(key)
    if buf is None or buf[1] < nbytes:
        if len(cache) >= 16:
            cache.clear()
        # The per-shape entries remember the kept buffers' addresses: they go with the buffers.
        shapes = getattr(_kept, "shapes", None)
        if shapes:
            shapes.clear()
        size = max(nbytes, 64 << 10)
        buf = cache[key] = (a.ops.empty((size,), "uint8", a.device), size)
    return buf[0]


def kept_shapes():
    """This thread's per-shape entries of the small calls' fast paths (a dict they fill as they
    like), emptied whenever a kept workspace is replaced, so an entry may hold a kept buffer's
    address."""
    shapes = getattr(_kept, "shapes", None)
    if shapes is None:
        shapes = _kept.shapes = {}
    elif len(shapes) >= 256:
        shapes.clear()
    return shapes


def shape_entry(kind, x, ops, dev, make):
    """(entry, stream) of a fast path for the contiguous 1-D GPU array x: the entry is kept in
    kept_shapes() under (kind, dtype, device, current stream, length) and made by
    make(x, dev, stream) the first time. None while the stream captures a CUDA graph and there
    is no entry yet: one made then would remember a workspace of that call's own."""
    s = ops.stream(dev)
    shapes = kept_shapes()
    key = (kind, x.dtype, dev, s, x.shape[0])
    e = shapes.get(key)
    if e is None:
        if ops.capturing():
            return None, s
        e = shapes[key] = make(x, dev, s)
    return e, s


def host_scalar(value, dtype):
    """One item of `dtype` in host memory, for the C ABI (keep the result alive during the call)."""
    if dtype == "bfloat16":
        f = np.array(value, dtype=np.float32).view(np.uint32)
        # round to nearest even, as a float32 -> bfloat16 conversion does
        bits = ((f + 0x7FFF + ((f >> 16) & 1)) >> 16).astype(np.uint16)
        if np.isnan(np.float32(value)):
            bits = np.uint16(0x7FC0)
        return np.array(bits, dtype=np.uint16)
    return np.array(value, dtype=dtype)


def check_size_arg(size, what):
    if size is None:
        return None
    try:
        size = operator.index(size)
    except TypeError:
        raise TypeError(f"{what}: size must be an integer, not {type(size).__name__}") from None
    if size < 0:
        raise ValueError(f"{what}: size must be >= 0, not {size}")
    return size


# Each entry that takes workspace: the workspace query (_capi.workspace_bytes) it needs.
_WORKSPACE_OF = {"scan": "scan", "sort": "sort", "sort_rows": "sort_rows", "topk": "topk", "select_flagged": "compact", "select_if": "compact",
                 "partition": "compact", "nonzero": "compact", "unique": "compact", "reduce": "reduce",
                 "segmented_reduce": "segments", "segmented_scan": "segments", "scan_by_key": "segments",
                 "reduce_by_key": "segments"}
_CODE_BYTES = {code: (2 if name == "bfloat16" else np.dtype(name).itemsize) for name, code in _capi.DTYPE_CODES.items()}


# Fields whose C names are Python keywords, and the names run() takes them by.
_KEYWORDS = {"in": "in_"}


def _value(ops, v):
    """A block's value: numbers as they are; arrays of the input's library by their data
    pointer; host buffers (NumPy arrays, ctypes objects) and algorithm names by theirs."""
    if v is None:
        return 0
    if isinstance(v, (int, float, np.integer, np.floating)):
        return v
    if isinstance(v, np.ndarray):
        return v.ctypes.data
    if isinstance(v, (bytes, ctypes._SimpleCData, ctypes.Array, ctypes.Structure)):
        return _capi.address(v)
    return ops.ptr(v)


def run(name, a, *, workspace=None, extra=(), **fields):
    """Calls sk_<name> for the input `a`: `fields` named as capi.h's sk_<name>_args (`in_` for
    `in`; arrays, host scalars and None as their addresses; algorithm as the user's name, None
    for the default); device and stream are a's. workspace, on the GPU: "new" (from the caller's
    allocator) or "kept" (the stream's reusable buffer: for entries that use it only while
    their own kernels run), sized by the entry's workspace query. extra: arguments after the
    block (sk_read_count's out-pointer)."""
    ops, dev = a.ops, a.device
    s = ops.stream(dev) if dev >= 0 else 0
    alg = _capi.algo(fields.get("algorithm"))
    fields["device"], fields["stream"], fields["algorithm"] = dev, s, alg
    ws = None
    if workspace is not None and dev >= 0:
        kind = _WORKSPACE_OF[name]
        if kind == "scan":
            query = (dev, fields["dtype"], fields["outer"], fields["len"], fields["inner"], alg)
        elif kind == "reduce":
            query = (dev, fields["dtype"], fields["op"])
        elif kind == "segments":
            query = (dev, fields["n"], fields.get("n_segments", 0), _CODE_BYTES[fields["dtype"]])
        elif kind == "topk":
            query = (dev, fields["dtype"], fields["rows"], fields["cols"], fields["k"])
        elif kind == "sort_rows":
            query = (dev, fields["dtype"], fields["rows"], fields["cols"], int(fields.get("indices_out") is not None))
        elif kind == "sort":
            query = (dev, fields["dtype"], fields["n"], fields.get("value_bytes", 0), int(fields.get("indices", 0) != 0),
                     alg)
        else:
            item = fields["item_bytes"] if "item_bytes" in fields else _CODE_BYTES[fields["dtype"]]
            query = (dev, fields["n"], item, alg)
        nbytes = _capi.workspace_bytes(kind, *query)
        ws = reusable_workspace(a, nbytes, s) if workspace == "kept" else new_workspace(a, nbytes)
        fields["workspace"], fields["workspace_bytes"] = ws, nbytes
    _capi.call(name, *[_value(ops, fields.get(_KEYWORDS.get(f, f))) for f in _capi.fields(name)], *extra)


def compaction_result(a, out, count, size, fill_value, item_dtype):
    """The exact result out[:count] (one host round trip on the GPU: the count), or, with
    size=, out[:size] with the positions past the count set to fill_value (no round trip)."""
    if size is None:
        k = read_count(a, count)
        return out[:k], k
    fill = host_scalar(0 if fill_value is None else fill_value, item_dtype)
    run("fill_tail", a, item_bytes=fill.itemsize, out=out, count=count, size=size, fill=fill)
    return out[:size], None


def read_count(a, count):
    """The int64 a compaction left at `count` (a's device; one round trip on the GPU)."""
    value = ctypes.c_int64(0)
    run("read_count", a, count=count, extra=(ctypes.byref(value),))
    return value.value


def itemsize(name):
    return 2 if name == "bfloat16" else 1 if name == "bool" else np.dtype(name).itemsize


# ---- the small calls' fast paths ------------------------------------------------------------
# A plain 1-D call on a contiguous array costs the result's allocation and the C call, plus a
# look-up: what depends only on the dtype, device, stream and length (type code, workspace size,
# kept workspace's address) is made once per shape (shape_entry). None: the path does not apply.

# The types sk_scan takes, and NumPy's (native byte order) with their codes.
SCAN_TYPES = ("int32", "int64", "uint32", "uint64", "float32", "float64")
_NUMPY_SCAN_CODES = {np.dtype(t): _capi.DTYPE_CODES[t] for t in SCAN_TYPES}
_FLOAT_CODES = (_capi.DTYPE_CODES["float32"], _capi.DTYPE_CODES["float64"])
_FAST_KINDS = ("torch", "cupy")
_count = threading.local()


def scan_flat(a, op, exclusive):
    """The scan (operator code op) of a's 1-D contiguous array of one of SCAN_TYPES, nothing
    else asked for: the result's allocation and one C call."""
    ops, x, dev = a.ops, a.x, a.device
    n = int(x.shape[0])
    res = ops.empty_like(x, a.dtype, dev)
    code = _capi.DTYPE_CODES[a.dtype]
    if dev >= 0:
        s = ops.stream(dev)
        nbytes = _capi.workspace_bytes("scan", dev, code, 1, n, 1, b"")
        ws = reusable_workspace(a, nbytes, s)  # the scan uses it only while its kernels run
        wp = 0 if ws is None else ops.ptr(ws)
    else:
        s, nbytes, wp = 0, 0, 0
    _capi.scan(dev, code, op, 1 if exclusive else 0, 0, ops.ptr(x), ops.ptr(res), 1, n, 1, 0, wp, nbytes, s)
    return ops.wrap_result(res)


def scan_numpy_flat(x, op, exclusive, ints_only):
    """scan_flat of a contiguous 1-D NumPy array, before wrap(): the result's allocation, its two
    data pointers and the C call, about what NumPy's own cumsum of a small array costs.
    ints_only: the operator is bitwise (float arrays take the general path's error)."""
    if x.ndim != 1 or not x.flags.c_contiguous:
        return None
    code = _NUMPY_SCAN_CODES.get(x.dtype)
    if code is None or (ints_only and code in _FLOAT_CODES):
        return None
    res = np.empty(x.shape[0], x.dtype)
    _capi.scan(-1, code, op, 1 if exclusive else 0, 0, x.ctypes.data, res.ctypes.data, 1, x.shape[0], 1, 0, 0, 0, 0)
    return res


def scan_gpu_flat(x, op, exclusive, ints_only):
    """scan_flat of a contiguous 1-D torch or CuPy GPU array, before wrap(), from its shape's
    entry and the kept workspace."""
    ops = _ops_of_type.get(type(x))
    if ops is None or ops.name not in _FAST_KINDS:
        return None
    dev = ops.flat_device(x)
    if dev < 0:
        return None
    e, s = shape_entry("scan", x, ops, dev, _scan_entry)
    if not e or (ints_only and e[0] in _FLOAT_CODES):
        return None
    res = ops.empty_flat_like(x, dev)
    # The library checks for a graph capture (which may not hold the kept workspace) beside the
    # launch, for a fraction of what asking the array library here would cost every call.
    if _capi.scan(dev, e[0], op, 1 if exclusive else 0, 0, ops.ptr(x), ops.ptr(res), 1, e[1], 1, 0, e[3], e[2], s,
                  _capi.SCAN_KEPT_WORKSPACE if e[3] else 0) is False:
        return None
    return res


def _scan_entry(x, dev, s):
    """(type code, n, workspace bytes, workspace address) for scan_gpu_flat, or False: a type
    sk_scan does not take as it is, or a workspace too large to keep."""
    a = wrap(x)
    if a.dtype not in SCAN_TYPES:
        return False
    n = int(x.shape[0])
    code = _capi.DTYPE_CODES[a.dtype]
    nbytes = _capi.workspace_bytes("scan", dev, code, 1, n, 1, b"")
    if nbytes > _KEEP_BYTES:
        return False
    ws = reusable_workspace(a, nbytes, s)
    return (code, n, nbytes, 0 if ws is None else a.ops.ptr(ws))


def select_gpu_flat(x, mask):
    """x[mask] of a contiguous 1-D torch or CuPy GPU array and a bool mask like it, before
    wrap(). The kept workspace also holds the count, read back before the call returns, so the
    call costs the result's allocation, the C call and the count's round trip."""
    ops = _ops_of_type.get(type(x))
    if ops is None or ops.name not in _FAST_KINDS or type(mask) is not type(x):
        return None
    dev = ops.flat_device(x)
    if dev < 0 or ops.flat_device(mask) != dev or mask.shape != x.shape or ops.dtype_name(mask) != "bool":
        return None
    e, s = shape_entry("select", x, ops, dev, _select_entry)
    if not e:
        return None
    out = ops.empty_flat_like(x, dev)
    _capi.call("select_flagged", dev, e[0], ops.ptr(x), ops.ptr(mask), ops.ptr(out), e[1], e[4], 0, e[3], e[2], s)
    value = getattr(_count, "value", None)
    if value is None:
        value = _count.value = ctypes.c_int64(0)
    _capi.call("read_count", dev, e[4], s, ctypes.byref(value))
    return out[: value.value]


def _select_entry(x, dev, s):
    """(item bytes, n, workspace bytes, workspace address, count address) for select_gpu_flat,
    or False: an item size the kernels do not move, or a workspace too large to keep."""
    a = wrap(x)
    item = itemsize(a.dtype)
    if item not in (1, 4, 8):
        return False
    n = int(x.shape[0])
    nbytes = _capi.workspace_bytes("compact", dev, n, item, b"")
    at = (nbytes + 15) // 16 * 16  # the count's word, past the kernels' bytes
    if at + 16 > _KEEP_BYTES:
        return False
    ws = a.ops.ptr(reusable_workspace(a, at + 16, s))
    return (item, n, nbytes, ws, ws + at)
