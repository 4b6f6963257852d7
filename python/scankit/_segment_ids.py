"""segment_sum, segment_prod, segment_max and segment_min: reductions of data by segment id, as
``jax.ops`` names them.

Item i belongs to segment ``segment_ids[i]``. Ids need not be sorted: unsorted ids are put in
order by a stable sort (scankit's argsort) and the data gathered in that order, so each
segment's items are still combined in the order they appear in data (the same bits run to
run). In sorted ids the segments are then runs, their bounds counted by ``bincount`` and
scanned into CSR offsets on the data's device, and the segmented reduction does the rest. Ids
outside ``[0, num_segments)`` are dropped, as jax drops them; an empty segment gets the
operator's identity (0, 1, the lowest value or -inf for max, the largest or +inf for min).
"""

import operator

from ._arrays import same_place, wrap
from ._core import flat
from ._histogram import bincount
from ._segments import _CHECK_NONE, _INT_TYPES, _segmented_reduce, _values, offsets_of
from ._sort import argsort


def _offsets_of_ids(a, ids, signed, k, what):
    """int64 CSR offsets (k + 1, on a's device) of the runs of the sorted ids: offsets[s] counts
    the ids below s, so the dropped ids below 0 and from k up lie outside the segments."""
    off, _ = offsets_of(a, None, bincount(ids, length=k), what)  # the counts' scan
    below = int((ids < 0).sum()) if signed else 0
    if below:
        off += below
    return off


def _by_ids(name, data, segment_ids, num_segments, indices_are_sorted, what):
    a, x = _values(data, what)
    s = wrap(segment_ids, "segment_ids")
    same_place(a, s, what)
    if s.ndim != 1:
        raise ValueError(f"{what}: segment_ids must be 1-D, not of shape {s.shape}")
    if s.dtype not in _INT_TYPES:
        raise TypeError(f"{what}: segment_ids must be integers, not {s.dtype}")
    if s.size != a.size:
        raise ValueError(f"{what}: {s.size} segment_ids for {a.size} data items")
    ids = flat(s)
    if s.dtype in ("int8", "int16", "uint8", "uint16"):
        ids = s.ops.astype(ids, "int32")
    elif s.dtype == "uint64":
        ids = s.ops.astype(ids, "int64")  # ids past 2^63 are out of any range, negative as int64
    if num_segments is None:
        k = int(s.ops.max(ids)) + 1 if s.size else 0
    else:
        k = operator.index(num_segments)
    if k < 0:
        raise ValueError(f"{what}: num_segments must be >= 0, not {k}")
    if not indices_are_sorted and s.size > 1:
        order = argsort(ids)  # stable: equal ids keep the data's order
        ids, x = s.ops.take(ids, order), a.ops.take(x, order)
    off = _offsets_of_ids(a, ids, s.dtype not in ("uint8", "uint16", "uint32"), k, what)
    return _segmented_reduce(x, name, off, None, None, None, _CHECK_NONE, what)


def segment_sum(data, segment_ids, num_segments=None, *, indices_are_sorted=False, unique_indices=False):
    """``jax.ops.segment_sum`` of a 1-D ``data``: ``out[s]`` is the sum of the items whose id is s.

    Parameters
    ----------
    data : 1-D array (int32/64, uint32/64, float32/64)
    segment_ids : 1-D integer array of len(data), on data's device
    num_segments : int, optional
        The length of the result; by default ``max(segment_ids) + 1`` (one round trip on the
        GPU). Ids outside ``[0, num_segments)`` are dropped.
    indices_are_sorted : bool
        The ids do not decrease: skip the sort (with unsorted ids the result is then wrong).
    unique_indices : bool
        Accepted for jax's signature; not needed.

    Returns
    -------
    1-D array of num_segments values, data's type, library and device; 0 for an empty segment.
    """
    del unique_indices
    return _by_ids("sum", data, segment_ids, num_segments, indices_are_sorted, "segment_sum")


def segment_prod(data, segment_ids, num_segments=None, *, indices_are_sorted=False, unique_indices=False):
    """``jax.ops.segment_prod``: as segment_sum, with products (1 for an empty segment)."""
    del unique_indices
    return _by_ids("prod", data, segment_ids, num_segments, indices_are_sorted, "segment_prod")


def segment_max(data, segment_ids, num_segments=None, *, indices_are_sorted=False, unique_indices=False):
    """``jax.ops.segment_max``: as segment_sum, with maxima (-inf, or the type's lowest value,
    for an empty segment)."""
    del unique_indices
    return _by_ids("max", data, segment_ids, num_segments, indices_are_sorted, "segment_max")


def segment_min(data, segment_ids, num_segments=None, *, indices_are_sorted=False, unique_indices=False):
    """``jax.ops.segment_min``: as segment_sum, with minima (+inf, or the type's largest value,
    for an empty segment)."""
    del unique_indices
    return _by_ids("min", data, segment_ids, num_segments, indices_are_sorted, "segment_min")
