"""Segmented operations: segment_reduce (torch.segment_reduce), segment_csr (torch_scatter),
segmented_scan, scan_by_key and reduce_by_key.

Segments are CSR offsets (n_segments + 1 positions, int64 or int32), lengths (turned into
offsets on the data's device by scankit's own scan), head flags, or runs of equal keys. Values:
int32/64, uint32/64, float32/64; operators sum, prod, min, max (and mean for the reductions).
On the GPU every call is queued on the caller's current stream; the check of offsets and
lengths (unsafe=False) waits for it, and reduce_by_key reads its run count back.
"""

import operator

from . import _capi
from ._arrays import same_place, wrap
from ._core import SCAN_TYPES, flat, host_scalar, read_count, run

_OPS = {"sum": "sum", "add": "sum", "prod": "prod", "product": "prod", "mul": "prod", "multiply": "prod",
        "min": "min", "amin": "min", "minimum": "min", "max": "max", "amax": "max", "maximum": "max"}
_REDUCTIONS = dict(_OPS, mean="mean")
_INT_TYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
# Key types: compared by their bits, 4 or 8 of them; narrower integers are widened.
_KEY_WIDER = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "int32", "uint16": "int32"}
_CHECK_NONE, _CHECK_BOUNDS, _CHECK_COVERING = 0, 1, 2


def _op(op, table, what):
    name = table.get(op) if isinstance(op, str) else None
    if name is None:
        raise ValueError(f"{what}: unknown reduction {op!r}; choose from {', '.join(sorted(set(table)))}")
    return name


def _values(x, what, name="data"):
    a = wrap(x, name)
    if a.dtype not in SCAN_TYPES:
        raise TypeError(f"{what} does not take {a.dtype} values; supported: {', '.join(SCAN_TYPES)}")
    if a.ndim != 1:
        raise ValueError(f"{what}: {name} must be 1-D, not of shape {a.shape}")
    return a, flat(a)


def _index_array(a, v, name, what):
    """A 1-D integer array argument (offsets, lengths) on a's device, as contiguous int64."""
    o = wrap(v, name)
    same_place(a, o, what)
    if o.ndim != 1:
        raise ValueError(f"{what}: {name} must be 1-D, not of shape {o.shape}")
    if o.dtype not in _INT_TYPES:
        raise TypeError(f"{what}: {name} must be integers (int64 or int32), not {o.dtype}")
    y = flat(o)
    return y if o.dtype == "int64" else o.ops.astype(y, "int64")


def offsets_of(a, offsets, lengths, what):
    """(int64 CSR offsets on a's device, number of segments) from exactly one of offsets and
    lengths; lengths become offsets by an inclusive scan into offsets[1:] (offsets[0] = 0)."""
    if (offsets is None) == (lengths is None):
        raise ValueError(f"{what}: pass exactly one of lengths= and offsets=")
    if offsets is not None:
        off = _index_array(a, offsets, "offsets", what)
        if off.shape[0] == 0:
            raise ValueError(f"{what}: offsets needs n_segments + 1 >= 1 entries")
        return off, int(off.shape[0]) - 1
    lens = _index_array(a, lengths, "lengths", what)
    k = int(lens.shape[0])
    off = a.ops.zeros((k + 1,), "int64", a.device)
    if k > 0:
        run("scan", a, workspace="kept", dtype=_capi.DTYPE_CODES["int64"], op=_capi.OP_CODES["sum"], exclusive=0,
            init=None, in_=lens, out=off[1:], outer=1, len=k, inner=1, algorithm=None)
    return off, k


def _scalar_or_none(v, dtype, what, name):
    if v is None:
        return None
    try:
        return host_scalar(v, dtype)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{what}: {name}={v!r} is not a value of the data's type {dtype}") from None


def _segmented_reduce(data, name, offsets, lengths, initial, empty, check, what):
    a, x = _values(data, what)
    off, k = offsets_of(a, offsets, lengths, what)
    mean = name == "mean"
    op = "sum" if mean else name
    init = _scalar_or_none(initial, a.dtype, what, "initial")
    fill = _scalar_or_none(empty, a.dtype, what, "empty")
    out = a.ops.empty((k,), a.dtype, a.device)
    with _lengths_named(lengths, a.size):
        run("segmented_reduce", a, workspace="kept", dtype=_capi.DTYPE_CODES[a.dtype], op=_capi.OP_CODES[op],
            mean=int(mean), in_=x, n=a.size, offsets=off, n_segments=k, init=init, empty=fill, out=out, check=check)
    return a.ops.wrap_result(out)


class _lengths_named:
    """Says, in a check's error, that the offsets it names came from the caller's lengths."""

    def __init__(self, lengths, n):
        self.lengths, self.n = lengths, n

    def __enter__(self):
        return self

    def __exit__(self, kind, e, tb):
        if self.lengths is not None and kind is ValueError:
            raise ValueError(f"{e} -- the offsets of lengths=, which must be >= 0 and add up to the "
                             f"{self.n} items") from None
        return False


def segment_reduce(data, reduce="sum", *, lengths=None, offsets=None, initial=None, unsafe=False, axis=0):
    """One reduction per segment of the 1-D ``data`` (``torch.segment_reduce``).

    Parameters
    ----------
    data : 1-D array (int32/64, uint32/64, float32/64)
    reduce : str
        ``"sum"``, ``"prod"``, ``"max"``, ``"min"``, ``"amax"``, ``"amin"`` or ``"mean"``.
    lengths, offsets : 1-D integer arrays on data's device; exactly one of them
        ``lengths[s]`` items in segment s (they must add up to ``len(data)``), or CSR offsets:
        segment s is ``data[offsets[s]:offsets[s+1]]``, ``offsets[0] == 0`` and
        ``offsets[-1] == len(data)`` (int32 offsets are widened to int64 first).
    initial : scalar, optional
        As torch's: the start of every segment's reduction (combined with its items: sum gives
        initial + sum), and the result of an empty segment. Without it an empty segment gets
        the operator's identity (0, 1, the type's largest value or +inf for min, its lowest or
        -inf for max); the mean of an empty segment is NaN (0 for integers). The mean divides
        by the segment's length (integers truncate), initial included, as torch does.
    unsafe : bool
        Skip the check of the offsets or lengths (on the GPU the check waits for the stream).
        With invalid segments the results are then unspecified (no memory is read out of
        bounds); the CPU backend always checks that the segments lie in the data.
    axis : int
        0 only (data is 1-D).

    Returns
    -------
    1-D array of n_segments values, data's type, library and device.
    """
    if axis not in (0, -1):
        raise ValueError(f"segment_reduce: axis must be 0 (1-D data), not {axis!r}")
    name = _op(reduce, _REDUCTIONS, "segment_reduce")
    check = _CHECK_NONE if unsafe else _CHECK_COVERING
    return _segmented_reduce(data, name, offsets, lengths, initial, None, check, "segment_reduce")


def segment_csr(src, indptr, reduce="sum"):
    """``torch_scatter.segment_csr`` of a 1-D ``src``: ``out[s]`` reduces
    ``src[indptr[s]:indptr[s+1]]`` with ``"sum"``/``"add"``, ``"mean"``, ``"min"``, ``"max"``
    or ``"mul"``; empty segments give 0 (as torch_scatter). The segments need not cover src
    but must lie in it and not decrease (checked: on the GPU this waits for the stream)."""
    name = _op(reduce, _REDUCTIONS, "segment_csr")
    return _segmented_reduce(src, name, indptr, None, None, 0, _CHECK_BOUNDS, "segment_csr")


def segmented_scan(x, op="sum", *, offsets=None, lengths=None, flags=None, exclusive=False, initial=None,
                   unsafe=False):
    """A prefix scan of each segment of the 1-D ``x`` on its own: the running value starts again
    (at ``initial``, by default the operator's identity) at every segment's first item.

    The segments: CSR ``offsets`` or ``lengths`` that cover x exactly (as
    :func:`segment_reduce`'s, checked unless ``unsafe``), or ``flags``, a bool or uint8 array
    like x whose true items start a segment (item 0 always starts one). op: ``"sum"``,
    ``"prod"``, ``"min"`` or ``"max"``. Exclusive scans put ``initial`` at each segment's first
    item. Returns an array like x.
    """
    what = "segmented_scan"
    name = _op(op, _OPS, what)
    a, y = _values(x, what, "x")
    given = sum(v is not None for v in (offsets, lengths, flags))
    if given != 1:
        raise ValueError(f"{what}: pass exactly one of offsets=, lengths= and flags=")
    init = _scalar_or_none(initial, a.dtype, what, "initial")
    fields = dict(dtype=_capi.DTYPE_CODES[a.dtype], op=_capi.OP_CODES[name], exclusive=int(bool(exclusive)),
                  init=init, in_=y, n=a.size)
    if flags is not None:
        f = wrap(flags, "flags")
        same_place(a, f, what)
        if tuple(f.shape) != tuple(a.shape):
            raise ValueError(f"{what}: flags has shape {f.shape}, x {a.shape}")
        if f.dtype not in ("bool", "uint8"):
            raise TypeError(f"{what}: flags must be bool or uint8, not {f.dtype}")
        fy = flat(f)
        fields.update(flags=fy if f.dtype == "uint8" else f.ops.view(fy, "uint8"), offsets=None, n_segments=0,
                      check=0)
    else:
        off, k = offsets_of(a, offsets, lengths, what)
        fields.update(flags=None, offsets=off, n_segments=k, check=0 if unsafe else 1)
    out = a.ops.empty((a.size,), a.dtype, a.device)
    with _lengths_named(lengths, a.size):
        run("segmented_scan", a, workspace="kept", out=out, **fields)
    return a.ops.wrap_result(out)


def _keys(a, keys, what):
    """(keys as contiguous items of 4 or 8 bytes, their dtype, the input's dtype)."""
    k = wrap(keys, "keys")
    same_place(a, k, what)
    if k.ndim != 1 or k.size != a.size:
        raise ValueError(f"{what}: keys of shape {k.shape} for values of shape {a.shape}")
    y = flat(k)
    dt = k.dtype
    if dt in _KEY_WIDER:
        return k.ops.astype(y, _KEY_WIDER[dt]), _KEY_WIDER[dt], dt
    size = {"int32": 4, "uint32": 4, "float32": 4, "int64": 8, "uint64": 8, "float64": 8}.get(dt)
    if size is None:
        raise TypeError(f"{what}: keys of {dt} are not supported (keys of 4 or 8 bytes, or narrower integers)")
    return y, dt, dt


def scan_by_key(keys, values, op="sum", exclusive=False, *, initial=None):
    """A segmented scan of ``values`` whose segments are the runs of equal consecutive
    ``keys`` (compared by their bits: for floats -0.0 and 0.0 differ and a NaN equals the same
    NaN), as ``thrust::inclusive_scan_by_key``. keys: 1-D, as long as values, of 4 or 8 bytes
    (narrower integers are widened). op: ``"sum"``, ``"prod"``, ``"min"`` or ``"max"``."""
    what = "scan_by_key"
    name = _op(op, _OPS, what)
    a, y = _values(values, what, "values")
    ky, kdt, _ = _keys(a, keys, what)
    out = a.ops.empty((a.size,), a.dtype, a.device)
    run("scan_by_key", a, workspace="kept", dtype=_capi.DTYPE_CODES[a.dtype], op=_capi.OP_CODES[name],
        exclusive=int(bool(exclusive)), init=_scalar_or_none(initial, a.dtype, what, "initial"), keys=ky,
        key_bytes=_key_bytes(kdt), in_=y, out=out, n=a.size)
    return a.ops.wrap_result(out)


def _key_bytes(dt):
    return 4 if dt in ("int32", "uint32", "float32") else 8


def reduce_by_key(keys, values, op="sum"):
    """``(unique_keys, aggregates)``: for each run of equal consecutive ``keys`` (compared by
    their bits, as :func:`scan_by_key`), its key and ``op`` over its values, in order (as
    ``thrust::reduce_by_key``; sort by key first for a group-by). Exact-size results: on the GPU
    the number of runs is read back (one round trip). The results are views of buffers with
    room for every item; copy them to free the rest."""
    what = "reduce_by_key"
    name = _op(op, _OPS, what)
    a, y = _values(values, what, "values")
    ky, kdt, orig = _keys(a, keys, what)
    n, ops = a.size, a.ops
    uniq = ops.empty((n,), kdt, a.device)
    aggr = ops.empty((n,), a.dtype, a.device)
    count = ops.empty((1,), "int64", a.device)
    run("reduce_by_key", a, workspace="kept", dtype=_capi.DTYPE_CODES[a.dtype], op=_capi.OP_CODES[name], keys=ky,
        key_bytes=_key_bytes(kdt), in_=y, n=n, unique_keys=uniq, aggregates=aggr, count=count)
    r = operator.index(read_count(a, count))
    uniq = uniq[:r]
    if orig != kdt:
        uniq = ops.astype(uniq, orig)
    return ops.wrap_result(uniq), ops.wrap_result(aggr[:r])
