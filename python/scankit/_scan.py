"""Prefix scans: scan, cumsum, cumprod, cummax, cummin."""

import numpy as np

from . import _capi
from ._arrays import wrap
from ._core import (SCAN_TYPES, dtype_name, host_scalar, normalize_axis, prod, run, scan_flat, scan_gpu_flat,
                    scan_numpy_flat)

_NATIVE = SCAN_TYPES
# Types the library does not scan, and what they are scanned as.
_WIDER = {"bool": "int64", "int8": "int64", "int16": "int64", "uint8": "uint64", "uint16": "uint64"}
_HALF = ("float16", "bfloat16")
_OPS = {
    "sum": "sum", "add": "sum", "+": "sum",
    "prod": "prod", "product": "prod", "multiply": "prod", "*": "prod",
    "min": "min", "minimum": "min",
    "max": "max", "maximum": "max",
    "and": "and", "bitwise_and": "and", "&": "and",
    "or": "or", "bitwise_or": "or", "|": "or",
    "xor": "xor", "bitwise_xor": "xor", "^": "xor",
}
_ORDER_PRESERVING = ("min", "max", "and", "or", "xor")
SUPPORTED = _NATIVE + tuple(_WIDER) + _HALF


def _types(dt, op, requested):
    """(compute dtype, result dtype) of a scan of `dt` items with `op`."""
    if requested is not None:
        if requested not in _NATIVE:
            raise TypeError(f"scan: dtype={requested} is not supported; choose from {', '.join(_NATIVE)}")
        return requested, requested
    if dt in _NATIVE:
        return dt, dt
    if dt in _WIDER:
        # Sums and products widen as NumPy's do; min, max and the bitwise operators give back
        # the input type exactly.
        return _WIDER[dt], (dt if op in _ORDER_PRESERVING else _WIDER[dt])
    if dt in _HALF:
        return "float32", dt
    raise TypeError(f"scan does not take {dt} arrays; supported: {', '.join(SUPPORTED)}")


def scan(x, op="sum", axis=None, *, exclusive=False, initial=None, dtype=None, algorithm=None, out=None):
    """Prefix scan of ``x`` along ``axis`` with an associative operator.

    Parameters
    ----------
    x : array
        NumPy arrays (and PyTorch CPU tensors) run on the CPU backend; CuPy arrays, PyTorch CUDA
        tensors and other CUDA arrays run on their GPU, on the caller's current stream.
    op : str
        ``"sum"``, ``"prod"``, ``"min"``, ``"max"``, or for integers ``"and"``, ``"or"``,
        ``"xor"`` (NumPy ufunc names such as ``"add"``, ``"maximum"`` work too).
    axis : int or None
        The axis to scan along; None scans the flattened array (as ``numpy.cumsum``).
    exclusive : bool
        Exclusive scan: position i combines the items before it, position 0 holds
        ``initial`` (the operator's identity by default).
    initial : scalar, optional
        Carry-in combined before the first item of every scanned line.
    dtype : dtype, optional
        Accumulate and return in this type (int32/64, uint32/64, float32/64). By default the
        result has the input's type; bool, int8 and int16 sums and products widen to int64,
        uint8 and uint16 to uint64 (as NumPy's), float16/bfloat16 accumulate in float32 and
        return their own type.
    algorithm : str, optional
        One of ``scankit.algorithms("scan")``: a GPU algorithm for GPU arrays, ``cpu-*`` for
        host arrays. Algorithms other than the default scan N-D arrays one line at a time.
    out : array, optional
        Where to write the result (same shape, dtype and device as the result); may be ``x``.

    Returns
    -------
    array of the input's library and device, with ``x``'s shape (1-D when ``axis`` is None).

    Integer sums and products wrap on overflow. Floating-point sums are reassociated (tiles and
    blocks), so they match a sequential sum within rounding.
    """
    name = _OPS.get(op) if isinstance(op, str) else None
    if name is None:
        raise ValueError(f"scan: unknown operator {op!r}; choose from sum, prod, min, max, and, or, xor")
    return _named(name, x, axis, dtype, exclusive, initial, algorithm, out)


def _scan_general(a, name, axis, exclusive, initial, dtype, algorithm, out):
    """scan() of anything the plain 1-D paths do not take: other axes and shapes, conversions,
    a carry-in, a named algorithm, an output array."""
    ops = a.ops
    compute, result = _types(a.dtype, name, dtype_name(dtype))
    if name in ("and", "or", "xor") and compute.startswith("float"):
        raise TypeError(f"scan: the bitwise operator {name!r} needs integer items, not {a.dtype}")
    if exclusive and initial is None and name in ("min", "max") and result in _INT_RESULTS:
        # Scanned wider, returned in its own type: the exclusive scan's first item is the
        # identity of the result's type (int8's -128 for max), not of the wider one's, which
        # the conversion back would wrap.
        initial = _EXTREMES[result][name == "min"]
    y = a.x
    if axis is None:
        if a.ndim != 1:
            y = ops.reshape(ops.contiguous(y) if not ops.is_contiguous(y) else y, (a.size,))
        axis = 0
    else:
        if a.ndim == 0:
            raise ValueError("scan: a 0-d array has no axis to scan along; pass axis=None")
        axis = normalize_axis(axis, a.ndim, "scan")
    if a.dtype != compute:
        y = ops.astype(y, compute)
    if not ops.is_contiguous(y):
        y = ops.contiguous(y)
    shape = tuple(y.shape)
    moved = False
    if (a.device >= 0 and algorithm not in (None, "decoupled-lookback") and prod(shape[axis + 1:]) > 1):
        # The other GPU algorithms scan contiguous lines: move the axis last.
        y = ops.contiguous(ops.moveaxis(y, axis, -1))
        moved, orig_axis, axis = True, axis, len(shape) - 1
    cur = tuple(y.shape)
    outer, length, inner = prod(cur[:axis]), int(cur[axis]), prod(cur[axis + 1:])

    direct = (out is not None and not moved and result == compute and _fits(out, a, cur, compute))
    res = out if direct else ops.empty(cur, compute, a.device)
    init = None if initial is None else host_scalar(initial, compute)
    # The scan uses its workspace only while its kernels run: the stream's kept buffer serves.
    run("scan", a, workspace="kept", dtype=_capi.DTYPE_CODES[compute], op=_capi.OP_CODES[name],
        exclusive=int(bool(exclusive)), init=init, in_=y, out=res, outer=outer, len=length, inner=inner,
        algorithm=algorithm)
    if direct:
        return ops.wrap_result(out)
    if moved:
        res = ops.contiguous(ops.moveaxis(res, -1, orig_axis))
    if result != compute:
        res = ops.astype(res, result)
    if out is not None:
        _check_out(out, a, tuple(res.shape))
        ops.copy_into(out, res)
        return ops.wrap_result(out)
    return ops.wrap_result(res)


# The smallest and the largest value of the integer types scanned in a wider one.
_EXTREMES = {t: (int(np.iinfo(t).min), int(np.iinfo(t).max)) for t in ("int8", "int16", "uint8", "uint16")}
_EXTREMES["bool"] = (0, 1)
_INT_RESULTS = tuple(_EXTREMES)

_BITWISE = ("and", "or", "xor")
_FLOATS = ("float32", "float64")
_OP_CODES = _capi.OP_CODES


def _flat_ok(a, name, axis):
    """Whether scan() of `a` along `axis` is the plain 1-D scan _core.scan_flat runs."""
    return (a.dtype in _NATIVE and (axis is None or (type(axis) is int and -1 <= axis <= 0))
            and a.ops.ndim(a.x) == 1 and a.ops.is_contiguous(a.x) and not (name in _BITWISE and a.dtype in _FLOATS))


def _named(name, x, axis, dtype, exclusive, initial, algorithm, out):
    """scan() with its operator's name resolved (cumsum and its siblings call it directly): the
    plain 1-D scans straight away, anything else through _scan_general."""
    plain = dtype is None and out is None and initial is None and algorithm is None
    if plain and (axis is None or (type(axis) is int and -1 <= axis <= 0)):
        op, ints_only = _OP_CODES[name], name in _BITWISE
        r = (scan_numpy_flat(x, op, exclusive, ints_only) if type(x) is np.ndarray
             else scan_gpu_flat(x, op, exclusive, ints_only))
        if r is not None:
            return r
    a = wrap(x)
    if plain and _flat_ok(a, name, axis):
        return scan_flat(a, _OP_CODES[name], exclusive)
    return _scan_general(a, name, axis, exclusive, initial, dtype, algorithm, out)


def _fits(out, a, shape, dtype):
    try:
        o = wrap(out, "out")
    except TypeError:
        return False
    return (o.ops.name == a.ops.name and o.device == a.device and o.dtype == dtype and tuple(o.shape) == shape
            and o.ops.is_contiguous(o.x))


def _check_out(out, a, shape):
    o = wrap(out, "out")
    if o.ops.name != a.ops.name or o.device != a.device:
        raise ValueError("scan: out must be an array of the input's library on the input's device")
    if tuple(o.shape) != shape:
        raise ValueError(f"scan: out has shape {tuple(o.shape)}, the result has shape {shape}")


def cumsum(x, axis=None, dtype=None, *, exclusive=False, initial=None, algorithm=None, out=None):
    """Cumulative sum along ``axis`` (``numpy.cumsum``); see :func:`scan` for the arguments.

    Unlike NumPy, int32 and uint32 inputs keep their type (pass ``dtype=`` to widen).
    """
    return _named("sum", x, axis, dtype, exclusive, initial, algorithm, out)


def cumprod(x, axis=None, dtype=None, *, exclusive=False, initial=None, algorithm=None, out=None):
    """Cumulative product along ``axis`` (``numpy.cumprod``); see :func:`scan`."""
    return _named("prod", x, axis, dtype, exclusive, initial, algorithm, out)


def cummax(x, axis=None, dtype=None, *, exclusive=False, initial=None, algorithm=None, out=None):
    """Running maximum along ``axis`` (``numpy.maximum.accumulate``; values only, unlike
    ``torch.cummax``); see :func:`scan`. With NaN inputs the result is unspecified: the operator
    is ``a < b ? b : a``, which is not associative with NaN (NumPy propagates NaN)."""
    return _named("max", x, axis, dtype, exclusive, initial, algorithm, out)


def cummin(x, axis=None, dtype=None, *, exclusive=False, initial=None, algorithm=None, out=None):
    """Running minimum along ``axis`` (``numpy.minimum.accumulate``); see :func:`cummax`."""
    return _named("min", x, axis, dtype, exclusive, initial, algorithm, out)
