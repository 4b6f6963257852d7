"""Reductions over the flattened array: reduce, argmin, argmax, min_max.

NumPy inputs give NumPy scalars. GPU inputs (CuPy, PyTorch CUDA) give 0-d arrays of their
library on their device: the result stays in device memory, queued on the caller's current
stream, and nothing waits for the GPU. PyTorch CPU tensors give 0-d tensors.
"""

import numpy as np

from . import _capi
from ._arrays import wrap
from ._core import SCAN_TYPES, dtype_name, flat, run
from ._scan import _EXTREMES, _OPS, _types

_BITWISE = ("and", "or", "xor")
# Types the library does not reduce, and the type argmin/argmax/min_max read them as (orders
# and NaNs kept).
_ORDERED_AS = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32", "uint16": "uint32",
               "float16": "float32", "bfloat16": "float32"}
_SUPPORTED = SCAN_TYPES + tuple(_ORDERED_AS)


def _input(x, what):
    a = wrap(x)
    if a.dtype not in _SUPPORTED:
        raise TypeError(f"{what} does not take {a.dtype} arrays; supported: {', '.join(_SUPPORTED)}")
    return a


def _as(a, y, dtype):
    return y if a.dtype == dtype else a.ops.astype(y, dtype)


def _scalar(a, res, i):
    """Item i of the 1-D result res: a NumPy scalar for NumPy inputs, else a 0-d array of the
    input's library on its device (no copy, no synchronisation)."""
    if a.ops.name == "numpy":
        return res[i]
    return a.ops.wrap_result(res[i])


def reduce(x, op="sum", *, dtype=None):
    """The reduction of the flattened ``x`` with an associative operator (``numpy.sum`` and its
    siblings without an axis).

    Parameters
    ----------
    x : array
        NumPy arrays (and PyTorch CPU tensors) run on the CPU backend; CuPy arrays, PyTorch CUDA
        tensors and other CUDA arrays on their GPU, on the caller's current stream.
    op : str
        ``"sum"``, ``"prod"``, ``"min"``, ``"max"``, or for integers ``"and"``, ``"or"``,
        ``"xor"`` (NumPy ufunc names such as ``"add"``, ``"maximum"`` work too).
    dtype : dtype, optional
        Accumulate and return in this type (int32/64, uint32/64, float32/64). By default as
        :func:`scan`: the input's type, bool/int8/int16 sums and products in int64,
        uint8/uint16 in uint64, float16/bfloat16 in float32 returned as their own type.

    Returns
    -------
    A NumPy scalar for NumPy input; a 0-d array on the input's device otherwise (left in device
    memory: nothing waits for the GPU). An empty input gives the operator's identity (0, 1, the
    type's largest value or +inf for min, its lowest or -inf for max, all bits set for and).

    Integer sums and products wrap on overflow; float sums are reassociated (blocks), so they
    match a sequential sum within rounding, the same bits on every run. ``min`` and ``max`` do
    not propagate NaN (use :func:`min_max`, which does).
    """
    name = _OPS.get(op) if isinstance(op, str) else None
    if name is None:
        raise ValueError(f"reduce: unknown operator {op!r}; choose from sum, prod, min, max, and, or, xor")
    a = _input(x, "reduce")
    compute, result = _types(a.dtype, name, dtype_name(dtype))
    if name in _BITWISE and compute.startswith("float"):
        raise TypeError(f"reduce: the bitwise operator {name!r} needs integer items, not {a.dtype}")
    ops, n = a.ops, a.size
    if n == 0 and name in ("min", "max") and result in _EXTREMES:
        # Reduced in a wider type: the identity is the result type's own extreme.
        res = ops.from_numpy(np.array([_EXTREMES[result][name == "min"]], dtype=result), a.device)
        return _scalar(a, res, 0)
    y = _as(a, flat(a), compute)
    res = ops.empty((1,), compute, a.device)
    run("reduce", a, workspace="kept", dtype=_capi.DTYPE_CODES[compute], op=_capi.OP_CODES[name], in_=y, n=n,
        out=res)
    if result != compute:
        res = ops.astype(res, result)
    return _scalar(a, res, 0)


def _extreme(x, what):
    a = _input(x, what)
    if a.size == 0:
        raise ValueError(f"attempt to get {what} of an empty sequence")
    compute = _ORDERED_AS.get(a.dtype, a.dtype)
    return a, compute, _as(a, flat(a), compute)


def argmin(x):
    """The flat index (int64) of the smallest item of ``x`` (``numpy.argmin`` without an
    axis): the first one on ties; a NaN wins (the first NaN), as NumPy's. Raises ValueError for
    an empty array. A NumPy int64 for NumPy input, else a 0-d int64 array on the input's
    device (left in device memory)."""
    return _arg(x, _capi.REDUCE_ARGMIN, "argmin")


def argmax(x):
    """The flat index (int64) of the largest item of ``x`` (``numpy.argmax``); see
    :func:`argmin`."""
    return _arg(x, _capi.REDUCE_ARGMAX, "argmax")


def _arg(x, code, what):
    a, compute, y = _extreme(x, what)
    # The extreme item at byte 0, its int64 position at byte 8.
    res = a.ops.empty((2,), "int64", a.device)
    run("reduce", a, workspace="kept", dtype=_capi.DTYPE_CODES[compute], op=code, in_=y, n=a.size, out=res)
    return _scalar(a, res, 1)


def min_max(x):
    """``(min, max)`` of the flattened ``x`` in one pass (``torch.aminmax``): NaN for both if any
    item is NaN (as ``numpy.min`` and ``numpy.max``; -0.0 is the smaller zero). Raises
    ValueError for an empty array. NumPy scalars for NumPy input, else 0-d arrays on the
    input's device (left in device memory)."""
    a, compute, y = _extreme(x, "min_max")
    res = a.ops.empty((2,), compute, a.device)
    run("reduce", a, workspace="kept", dtype=_capi.DTYPE_CODES[compute], op=_capi.REDUCE_MIN_MAX, in_=y, n=a.size,
        out=res)
    if compute != a.dtype:
        res = a.ops.astype(res, a.dtype)
    return _scalar(a, res, 0), _scalar(a, res, 1)
