"""Top-k: the k largest or smallest items along an axis, with their positions (topk)."""

import operator
from collections import namedtuple

from . import _capi
from ._arrays import wrap
from ._core import run
from ._sort import _lines, _restore

SUPPORTED = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "bfloat16", "float32", "float64")

TopK = namedtuple("TopK", ["values", "indices"])
TopK.__doc__ = "topk's result: ``values`` (x's dtype) and ``indices`` (int64 positions along the axis)."


def _key_code(dtype):
    """(type code, dtype the library reads the items as): bool as uint8 (False < True)."""
    if dtype == "bool":
        return _capi.DTYPE_CODES["uint8"], "uint8"
    if dtype not in _capi.DTYPE_CODES:
        raise TypeError(f"topk does not take {dtype} arrays; supported: {', '.join(SUPPORTED)}")
    return _capi.DTYPE_CODES[dtype], dtype


def topk(x, k, axis=-1, largest=True, sorted=True):
    """The ``k`` largest (or, with ``largest=False``, smallest) items of ``x`` along ``axis``
    and their positions (``torch.topk``).

    Returns ``(values, indices)`` (a named tuple, as ``torch.topk``'s): ``values`` of x's dtype
    and int64 ``indices``, the positions along ``axis``, both of x's shape with ``k`` items
    along ``axis``, arrays of x's library on its device. The items come sorted: the largest in
    descending order, the smallest in ascending order, equal items by their position (the
    smaller first), so the result is the same on every run, backend and GPU. The order is the
    sorts': every integer type, bool, float16, bfloat16, float32, float64, floats in IEEE total
    order, ``-inf < ... < -0.0 < +0.0 < ... < +inf < NaN`` (a NaN counts as larger than +inf,
    as in ``torch.topk``). ``sorted=False`` is accepted and gives the same sorted result.
    ``axis=None`` selects from the flattened array.

    NumPy arrays (and PyTorch CPU tensors) run on the CPU backend; CuPy arrays and PyTorch CUDA
    tensors on their GPU, on the caller's current stream (no synchronisation), workspace from
    the caller's allocator. Raises ValueError for ``k`` outside ``[0, x.shape[axis]]``, an axis
    out of bounds or a 0-d ``x``, TypeError for an unsupported dtype.
    """
    a = wrap(x)
    ops = a.ops
    y, (rows, length), shape, ax = _lines(a, axis, "topk")
    code, as_dtype = _key_code(a.dtype)
    try:
        k = operator.index(k)
    except TypeError:
        raise TypeError(f"topk: k must be an integer, not {type(k).__name__}") from None
    if not 0 <= k <= length:
        where = "the flattened array" if ax is None else f"axis {ax}"
        raise ValueError(f"topk: k = {k} is out of range: {where} has {length} items (0 <= k <= {length})")
    values = ops.empty((rows * k,), as_dtype, a.device)
    indices = ops.empty((rows * k,), "int64", a.device)
    if rows * k > 0:
        keys = ops.reshape(y, (rows * length,))
        if as_dtype != a.dtype:
            keys = ops.view(keys, as_dtype)
        run("topk", a, workspace="new", dtype=code, in_=keys, values_out=values, indices_out=indices, rows=rows,
            cols=length, k=k, largest=int(bool(largest)))
    if as_dtype != a.dtype:
        values = ops.view(values, a.dtype)
    out_shape = shape[:-1] + (k,)
    return TopK(ops.wrap_result(_restore(ops, values, out_shape, ax)),
                ops.wrap_result(_restore(ops, indices, out_shape, ax)))
