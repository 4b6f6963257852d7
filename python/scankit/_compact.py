"""Stream compaction: select, compress, nonzero, flatnonzero, partition, unique, unique_consecutive.

Results whose length depends on the data come back as exact arrays: on the GPU that takes one
round trip to the host (the count, read after the kernels are done). With ``size=``, results
have exactly ``size`` entries (the first ``size`` results, then ``fill_value``) and nothing
waits for the GPU, as with ``jax.numpy.nonzero(size=)`` and ``torch.nonzero_static``. Exact
results are views of a buffer with room for every item; copy them to free the rest.
"""

from . import _capi
from ._arrays import same_place, wrap
from ._core import (check_size_arg, compaction_result, flat, host_scalar, itemsize, normalize_axis, prod, read_count,
                    run, select_gpu_flat)
from ._sort import _sort1d

_GPU_VALUE_TYPES = ("int32", "int64", "uint32", "uint64", "float32", "float64", "uint8")
_CPU_VALUE_TYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")


def _value_type(a):
    """The dtype the value-dependent compactions (nonzero, thresholds, unique) run a's items
    as, or None when they must be converted first."""
    if a.dtype == "bool":
        return "uint8"
    if a.dtype == "int8" and a.device >= 0:
        return "uint8"  # the same zeros and the same equalities
    native = _GPU_VALUE_TYPES if a.device >= 0 else _CPU_VALUE_TYPES
    return a.dtype if a.dtype in native else None


def _buffers(a, n, size, dtype):
    room = max(n, size or 0)
    return a.ops.empty((room,), dtype, a.device), a.ops.empty((1,), "int64", a.device)


def _mask_u8(a, mask, what):
    m = wrap(mask, "mask")
    same_place(a, m, what)
    if tuple(m.shape) != tuple(a.shape):
        raise ValueError(f"{what}: mask has shape {tuple(m.shape)}, the array {tuple(a.shape)}")
    mx = m.x if m.dtype == "bool" else m.ops.ne_zero(m.x)
    mx = flat(m.with_array(mx))
    return m.ops.view(mx, "uint8")


def _select_flagged(a, xflat, flags, size, fill_value, algorithm, what="select"):
    ops = a.ops
    n = int(xflat.shape[0])
    item = itemsize(a.dtype)
    ok_sizes = (1, 4, 8) if a.device >= 0 else (1, 2, 4, 8, 16)
    if item not in ok_sizes:
        # Items the GPU kernels do not move: gather them through the selected positions.
        bflags = ops.view(flags, "bool")
        if size is None:
            return ops.take(xflat, _nonzero_flat(a.with_array(bflags), bflags, None, 0, algorithm))
        idx = _nonzero_flat(a.with_array(bflags), bflags, size, -1, algorithm)
        vals = ops.take(xflat, _where_negative(ops, idx, idx, 0))
        return _where_negative(ops, idx, vals, fill_value)
    out, count = _buffers(a, n, size, a.dtype)
    run("select_flagged", a, workspace="kept", item_bytes=item, in_=xflat, flags=flags, out=out, n=n, count=count,
        algorithm=algorithm)
    return compaction_result(a, out, count, size, fill_value, a.dtype)[0]


def _pred(less_than, greater_than, what):
    if less_than is not None and greater_than is not None:
        raise ValueError(f"{what}: give less_than or greater_than, not both")
    if less_than is not None:
        return _capi.PRED_LESS, less_than
    if greater_than is not None:
        return _capi.PRED_GREATER, greater_than
    return _capi.PRED_NONZERO, None


def _mask_of_pred(a, pred, threshold):
    x = a.x
    if pred == _capi.PRED_LESS:
        return x < threshold
    if pred == _capi.PRED_GREATER:
        return x > threshold
    return a.ops.ne_zero(x)


def select(x, mask=None, *, less_than=None, greater_than=None, size=None, fill_value=0, algorithm=None):
    """The items of ``x`` where ``mask`` is true (``x[mask]``), in order, as a 1-D array.

    Without a mask: the items that are nonzero, or ``< less_than``, or ``> greater_than``.
    ``size=`` returns exactly that many items (``fill_value`` past the selected ones) without
    waiting for the GPU. Any dtype; ``algorithm``: one of ``scankit.algorithms("compact")``.
    """
    if mask is not None and size is None and algorithm is None and less_than is None and greater_than is None:
        r = select_gpu_flat(x, mask)
        if r is not None:
            return r
    a = wrap(x)
    ops = a.ops
    size = check_size_arg(size, "select")
    xflat = flat(a)
    if mask is not None:
        if less_than is not None or greater_than is not None:
            raise ValueError("select: give a mask or a threshold, not both")
        return ops.wrap_result(_select_flagged(a, xflat, _mask_u8(a, mask, "select"), size, fill_value, algorithm))
    pred, threshold = _pred(less_than, greater_than, "select")
    vt = _value_type(a)
    if vt is None or (pred != _capi.PRED_NONZERO and vt != a.dtype):
        flags = ops.view(flat(a.with_array(_mask_of_pred(a, pred, threshold))), "uint8")
        return ops.wrap_result(_select_flagged(a, xflat, flags, size, fill_value, algorithm))
    n = a.size
    xv = ops.view(xflat, vt) if vt != a.dtype else xflat
    out, count = _buffers(a, n, size, vt)
    thr = None if threshold is None else host_scalar(threshold, vt)
    run("select_if", a, workspace="kept", dtype=_capi.DTYPE_CODES[vt], pred=pred, threshold=thr, remove=0, in_=xv,
        out=out, n=n, count=count, algorithm=algorithm)
    res = compaction_result(a, out, count, size, fill_value, vt)[0]
    return ops.wrap_result(ops.view(res, a.dtype) if vt != a.dtype else res)


def compress(condition, a, axis=None, *, size=None, fill_value=0, algorithm=None):
    """``numpy.compress``: the slices of ``a`` along ``axis`` where the 1-D ``condition`` is true
    (``axis=None``: items of the flattened array; ``condition`` may be shorter than it)."""
    arr = wrap(a, "a")
    ops = arr.ops
    c = wrap(condition, "condition")
    same_place(arr, c, "compress")
    if c.ndim != 1:
        raise ValueError("compress: condition must be 1-D")
    size = check_size_arg(size, "compress")
    cflags = c.x if c.dtype == "bool" else c.ops.ne_zero(c.x)
    cflags = ops.view(flat(c.with_array(cflags)), "uint8")
    if axis is None:
        xflat = flat(arr)
        k = int(cflags.shape[0])
        if k > arr.size:
            raise ValueError(f"compress: condition has {k} items, the array only {arr.size}")
        return ops.wrap_result(_select_flagged(arr, xflat[:k], cflags, size, fill_value, algorithm, "compress"))
    axis = normalize_axis(axis, arr.ndim, "compress")
    if size is not None:
        raise ValueError("compress: size= is for axis=None")
    if int(cflags.shape[0]) > int(arr.shape[axis]):
        raise ValueError("compress: condition is longer than the axis")
    idx = _nonzero_flat(c.with_array(ops.view(cflags, "bool")), ops.view(cflags, "bool"), size, 0, algorithm)
    return ops.wrap_result(ops.take(arr.x, idx, axis=axis))


def _nonzero_flat(a, xflat, size, fill_value, algorithm):
    """Flat indices of the nonzero items of the 1-D contiguous xflat (of a's library)."""
    ops = a.ops
    vt = _value_type(a)
    if vt is None:
        xflat = ops.view(flat(a.with_array(ops.ne_zero(xflat))), "uint8")
        vt = "uint8"
    elif vt != a.dtype:
        xflat = ops.view(xflat, vt)
    n = int(xflat.shape[0])
    out, count = _buffers(a, n, size, "int64")
    run("nonzero", a, workspace="kept", dtype=_capi.DTYPE_CODES[vt], in_=xflat, indices=out, n=n, count=count,
        algorithm=algorithm)
    return compaction_result(a, out, count, size, fill_value, "int64")[0]


def flatnonzero(x, *, size=None, fill_value=0, algorithm=None):
    """Indices of the nonzero items of the flattened ``x`` (``numpy.flatnonzero``), int64."""
    a = wrap(x)
    size = check_size_arg(size, "flatnonzero")
    return a.ops.wrap_result(_nonzero_flat(a, flat(a), size, fill_value, algorithm))


def nonzero(x, *, size=None, fill_value=0, algorithm=None):
    """``numpy.nonzero``: a tuple of int64 index arrays, one per dimension.

    With ``size=``, each array has ``size`` entries, ``fill_value`` past the nonzeros
    (``jax.numpy.nonzero(size=, fill_value=)``), and nothing waits for the GPU.
    """
    a = wrap(x)
    ops = a.ops
    size = check_size_arg(size, "nonzero")
    shape = a.shape if a.ndim > 0 else (1,)
    if len(shape) == 1:
        return (ops.wrap_result(_nonzero_flat(a, flat(a), size, fill_value, algorithm)),)
    idx = _nonzero_flat(a, flat(a), size, -1 if size is not None else 0, algorithm)
    coords = []
    for d, dim in enumerate(shape):
        stride = max(prod(shape[d + 1:]), 1)
        cd = ops.remainder(ops.floor_divide(idx, stride), max(int(dim), 1))
        if size is not None:
            cd = _where_negative(ops, idx, cd, fill_value)
        coords.append(ops.wrap_result(cd))
    return tuple(coords)


def _where_negative(ops, idx, values, fill):
    """values, with `fill` where idx < 0 (the positions past the count of a size= result)."""
    base = getattr(ops, "inner", ops)
    neg = idx < 0
    if base.name == "torch":
        return base.torch.where(neg, base.torch.full_like(values, fill), values)
    mod = base.cp if base.name == "cupy" else __import__("numpy")
    return mod.where(neg, mod.asarray(fill, dtype=values.dtype), values)


def partition(x, mask=None, *, less_than=None, greater_than=None, stable=True, algorithm=None):
    """Reorders the flattened ``x``: the selected items first, in order, then the others.

    Selected: ``mask`` true, or nonzero, or ``< less_than``, or ``> greater_than``. The others
    follow in input order (``stable=True``) or in reverse (``stable=False``: one pass fewer on
    the GPU). Returns ``(array, number_selected)``; the count is a Python int (one round trip).
    """
    a = wrap(x)
    ops = a.ops
    xflat = flat(a)
    n = a.size
    if mask is None:
        pred, threshold = _pred(less_than, greater_than, "partition")
        vt = _value_type(a)
        if vt is not None and (pred == _capi.PRED_NONZERO or vt == a.dtype):
            xv = ops.view(xflat, vt) if vt != a.dtype else xflat
            out, count = _buffers(a, n, None, vt)
            thr = None if threshold is None else host_scalar(threshold, vt)
            run("partition", a, workspace="kept", dtype=_capi.DTYPE_CODES[vt], pred=pred, threshold=thr,
                stable=int(bool(stable)), in_=xv, out=out, n=n, count=count, algorithm=algorithm)
            k = read_count(a, count)
            res = ops.view(out, a.dtype) if vt != a.dtype else out
            return ops.wrap_result(res), k
        flags = ops.view(flat(a.with_array(_mask_of_pred(a, pred, threshold))), "uint8")
    else:
        if less_than is not None or greater_than is not None:
            raise ValueError("partition: give a mask or a threshold, not both")
        flags = _mask_u8(a, mask, "partition")
    chosen = _select_flagged(a, xflat, flags, None, 0, algorithm, "partition")
    rest_flags = ops.view(ops.logical_not(ops.view(flags, "bool")), "uint8")
    rest = _select_flagged(a, xflat, rest_flags, None, 0, algorithm, "partition")
    if not stable:
        rest = ops.flip(rest)
    return ops.wrap_result(ops.concat([chosen, rest])), int(chosen.shape[0])


def _unique_type(a):
    """(dtype the unique step runs on, dtype to cast to first or None)."""
    vt = _value_type(a)
    if vt is not None:
        return vt, None
    if a.dtype in ("float16", "bfloat16"):
        return "float32", "float32"
    if a.dtype in ("int16", "uint16", "int8"):
        return "int32", "int32"
    raise TypeError(f"unique does not take {a.dtype} arrays")


def _unique(a, xflat, return_counts, size, fill_value, algorithm, sort, equal_nan=False):
    ops = a.ops
    vt, cast = _unique_type(a)
    n = int(xflat.shape[0])
    if cast is not None:
        xflat = ops.astype(xflat, cast)
    if sort:
        xa = a.with_array(xflat)
        xflat, _ = _sort1d(xa, xflat, want_indices=False, descending=False, algorithm=None)
    xv = ops.view(xflat, vt) if (cast is None and vt != a.dtype) else xflat
    values, count = _buffers(a, n, size, vt)
    counts = ops.empty((max(n, size or 0),), "int64", a.device) if return_counts else None
    run("unique", a, workspace="kept", dtype=_capi.DTYPE_CODES[vt], in_=xv, values=values, counts=counts, n=n,
        equal_nan=1 if equal_nan else 0, count=count, algorithm=algorithm)
    res, k = compaction_result(a, values, count, size, fill_value, vt)
    if cast is not None:
        res = ops.astype(res, a.dtype)
    elif vt != a.dtype:
        res = ops.view(res, a.dtype)
    if not return_counts:
        return ops.wrap_result(res)
    if size is None:
        c = counts[:k]
    else:
        c, _ = compaction_result(a, counts, count, size, 0, "int64")
    return ops.wrap_result(res), ops.wrap_result(c)


def unique(x, *, return_counts=False, equal_nan=True, size=None, fill_value=0, algorithm=None):
    """The sorted distinct values of the flattened ``x`` (``numpy.unique``), and with
    ``return_counts=True`` how often each occurs (int64). A radix sort, then one compaction
    (``algorithm``: one of ``scankit.algorithms("compact")``). As in NumPy, all NaNs are one
    value, last (``equal_nan=True``; the first NaN of the sort's order stands for them), or
    each NaN a value of its own (``equal_nan=False``); -0.0 and +0.0 are one value."""
    a = wrap(x)
    size = check_size_arg(size, "unique")
    return _unique(a, flat(a), return_counts, size, fill_value, algorithm, sort=True, equal_nan=bool(equal_nan))


def unique_consecutive(x, *, return_counts=False, size=None, fill_value=0, algorithm=None):
    """The first item of every run of equal consecutive items of the flattened ``x``
    (``torch.unique_consecutive``), and with ``return_counts=True`` each run's length."""
    a = wrap(x)
    size = check_size_arg(size, "unique_consecutive")
    return _unique(a, flat(a), return_counts, size, fill_value, algorithm, sort=False)
