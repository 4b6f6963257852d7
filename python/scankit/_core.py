"""Helpers every primitive shares: dtype names, axes, workspace, scalars, compaction results."""

import ctypes
import operator
import threading

import numpy as np

from . import _capi


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


def ptr(ops, x):
    return None if x is None else ops.ptr(x)


def stream(a):
    return a.ops.stream(a.device) if a.device >= 0 else 0


def workspace(a, nbytes):
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
        return workspace(a, nbytes)
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


def host_ptr(buf):
    return None if buf is None else buf.ctypes.data_as(ctypes.c_void_p)


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


def compaction_result(a, out, count, size, fill_value, item_dtype):
    """The exact result out[:count] (one host round trip on the GPU: the count), or, with
    size=, out[:size] with the positions past the count set to fill_value (no round trip)."""
    ops = a.ops
    if size is None:
        value = ctypes.c_int64(0)
        _capi.call("read_count", a.device, ops.ptr(count), stream(a), ctypes.byref(value))
        return out[: value.value], value.value
    fill = host_scalar(0 if fill_value is None else fill_value, item_dtype)
    _capi.call("fill_tail", a.device, fill.itemsize, ops.ptr(out), ops.ptr(count), size, host_ptr(fill), stream(a))
    return out[:size], None


def itemsize(name):
    return 2 if name == "bfloat16" else 1 if name == "bool" else np.dtype(name).itemsize
