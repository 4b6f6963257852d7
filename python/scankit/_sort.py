"""Radix sorts: sort, argsort, sort_by_key."""

from . import _capi
from ._arrays import same_place, wrap
from ._core import flat, itemsize, normalize_axis, prod, run

SUPPORTED = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "bfloat16", "float32", "float64")


def _key_code(dtype):
    if dtype == "bool":
        return _capi.DTYPE_CODES["uint8"], "uint8"
    if dtype not in _capi.DTYPE_CODES:
        raise TypeError(f"sort does not take {dtype} keys; supported: {', '.join(SUPPORTED)}")
    return _capi.DTYPE_CODES[dtype], dtype


def _sort1d(a, keys, *, want_indices, descending, algorithm, values=None, value_bytes=0, want_keys=True):
    """Sorts the 1-D contiguous `keys` (of a's library and device). Returns (sorted keys,
    indices or sorted values or None); with want_indices and not want_keys, the first is
    scratch of unspecified contents (the GPU sort skips a write of the keys)."""
    ops = a.ops
    n = int(keys.shape[0])
    code, as_dtype = _key_code(a.dtype)
    kin = ops.view(keys, as_dtype) if as_dtype != a.dtype else keys
    kout = ops.empty((n,), as_dtype, a.device)
    vout = None
    if want_indices:
        vout = ops.empty((n,), "int64", a.device)
    elif values is not None:
        vout = ops.empty(tuple(values.shape), a.ops.dtype_name(values), a.device)
    run("sort", a, workspace="new", dtype=code, keys_in=kin, keys_out=kout, values_in=values, values_out=vout,
        value_bytes=value_bytes, indices=(1 if want_keys else 2) if want_indices else 0, n=n,
        descending=int(bool(descending)), algorithm=algorithm)
    if as_dtype != a.dtype:
        kout = ops.view(kout, a.dtype)
    return kout, vout


def _lines(a, axis, what):
    """(array moved so the sorted axis is last and contiguous, 2-D shape, N-D shape, axis)."""
    ops = a.ops
    if axis is None:
        y = flat(a)
        return y, (1, a.size), (a.size,), None
    if a.ndim == 0:
        raise ValueError(f"{what}: a 0-d array has no axis; pass axis=None")
    axis = normalize_axis(axis, a.ndim, what)
    y = a.x
    if axis != a.ndim - 1:
        y = ops.moveaxis(y, axis, -1)
    if not ops.is_contiguous(y):
        y = ops.contiguous(y)
    shape = tuple(y.shape)
    return y, (prod(shape[:-1]), int(shape[-1])), shape, axis


def _sort_lines(a, y, rows, length, *, descending, algorithm, want_keys=True, want_indices=True):
    """Sorted keys (None unless want_keys) and indices (positions within each line) of `rows`
    lines of `length`: one array sorted as is; several lines by the segmented sort, each line a
    segment (an algorithm name picks the flat sort, which sorts the lines by two flat sorts)."""
    ops = a.ops
    keys = ops.reshape(y, (rows * length,))
    if rows > 1 and algorithm is None:
        code, as_dtype = _key_code(a.dtype)
        kin = ops.view(keys, as_dtype) if as_dtype != a.dtype else keys
        kout = ops.empty((rows * length,), as_dtype, a.device)
        idx = ops.empty((rows * length,), "int64", a.device) if want_indices else None
        run("sort_rows", a, workspace="new", dtype=code, keys_in=kin, keys_out=kout, indices_out=idx, rows=rows,
            cols=length, descending=int(bool(descending)))
        if as_dtype != a.dtype:
            kout = ops.view(kout, a.dtype)
        return (kout if want_keys else None), idx
    k1, p1 = _sort1d(a, keys, want_indices=True, descending=descending, algorithm=algorithm, want_keys=want_keys)
    if not want_keys:
        k1 = None
    if rows <= 1:
        return k1, p1
    # Lines: a second stable sort by line number keeps each line's sorted order.
    line = ops.floor_divide(p1, length)
    line = ops.astype(line, "int32" if rows < 2**31 else "int64")
    la = a.with_array(line)
    _, p2 = _sort1d(la, line, want_indices=True, descending=False, algorithm=algorithm, want_keys=False)
    keys_sorted = ops.take(k1, p2) if want_keys else None
    pos = ops.remainder(ops.take(p1, p2), length)
    return keys_sorted, pos


def _restore(ops, z, shape, axis):
    z = ops.reshape(z, shape)
    if axis is not None and axis != len(shape) - 1:
        z = ops.contiguous(ops.moveaxis(z, -1, axis))
    return z


def sort(x, axis=-1, *, descending=False, stable=True, return_indices=False, algorithm=None):
    """Sorted copy of ``x`` along ``axis`` (``numpy.sort``; None sorts the flattened array).

    A stable LSD radix sort (``stable`` is accepted for NumPy compatibility and is always
    true). Keys: bool, every integer type, float16, bfloat16, float32, float64, in IEEE total
    order: ``-inf < ... < -0.0 < +0.0 < ... < +inf < NaN`` (``descending=True`` reverses it,
    equal keys keep their order). ``return_indices=True`` also returns the int64 positions
    (as ``torch.sort``), from the same pass. ``algorithm``: one of
    ``scankit.algorithms("sort")``. N-D arrays sort each line along the axis with the
    segmented sort (each line a segment); with ``algorithm`` given, by two flat sorts of that
    algorithm (the keys, then the line numbers of the result).
    """
    a = wrap(x)
    ops = a.ops
    y, (rows, length), shape, ax = _lines(a, axis, "sort")
    if rows <= 1 and not return_indices:
        k, _ = _sort1d(a, ops.reshape(y, (rows * length,)), want_indices=False, descending=descending,
                       algorithm=algorithm)
        return ops.wrap_result(_restore(ops, k, shape, ax))
    k, idx = _sort_lines(a, y, rows, length, descending=descending, algorithm=algorithm,
                         want_indices=return_indices)
    k = _restore(ops, k, shape, ax)
    if return_indices:
        return ops.wrap_result(k), ops.wrap_result(_restore(ops, idx, shape, ax))
    return ops.wrap_result(k)


def argsort(x, axis=-1, *, descending=False, stable=True, algorithm=None):
    """The stable sorting permutation along ``axis`` as int64 indices (``numpy.argsort`` with
    ``kind="stable"``); see :func:`sort`."""
    a = wrap(x)
    ops = a.ops
    y, (rows, length), shape, ax = _lines(a, axis, "argsort")
    _, idx = _sort_lines(a, y, rows, length, descending=descending, algorithm=algorithm, want_keys=False)
    return ops.wrap_result(_restore(ops, idx, shape, ax))


def sort_by_key(keys, values, *, descending=False, algorithm=None):
    """Sorts 1-D ``keys`` and applies the same permutation to ``values`` (stable).

    ``values`` has ``len(keys)`` rows of any dtype and trailing shape. Rows of 4, 8 or 16 bytes
    (also 1 and 2 on the CPU) move with their keys in the sort; others are gathered through the
    sorting permutation. Returns ``(sorted_keys, sorted_values)``.
    """
    a = wrap(keys, "keys")
    v = wrap(values, "values")
    same_place(a, v, "sort_by_key")
    ops = a.ops
    if a.ndim != 1:
        raise ValueError(f"sort_by_key: keys must be 1-D, not {a.ndim}-D")
    n = a.size
    if v.ndim == 0 or int(v.shape[0]) != n:
        raise ValueError(f"sort_by_key: values have shape {v.shape}; the first dimension must be len(keys) = {n}")
    row_bytes = itemsize(v.dtype) * prod(v.shape[1:])
    allowed = (4, 8, 16) if a.device >= 0 else (1, 2, 4, 8, 16)
    kin = flat(a)
    if row_bytes in allowed:
        vin = v.x if ops.is_contiguous(v.x) else ops.contiguous(v.x)
        k, vout = _sort1d(a, kin, want_indices=False, descending=descending, algorithm=algorithm, values=vin,
                          value_bytes=row_bytes)
        return ops.wrap_result(k), ops.wrap_result(vout)
    k, idx = _sort1d(a, kin, want_indices=True, descending=descending, algorithm=algorithm)
    return ops.wrap_result(k), ops.wrap_result(ops.take(v.x, idx, axis=0))
