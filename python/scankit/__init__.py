"""scankit: prefix scans, reductions, segmented operations, stream compaction, radix sort and histograms
for NumPy, CuPy and PyTorch.

Arrays in, arrays of the same library out. NumPy arrays (and PyTorch CPU tensors) run on the
CPU backend (oneTBB); CuPy arrays, PyTorch CUDA tensors and other CUDA arrays
(``__cuda_array_interface__`` or DLPack) run on the GPU they live on, on the caller's current
stream, with outputs and workspace from the caller's allocator. Inputs are never modified.
Strided inputs are copied to contiguous ones first.

    >>> import numpy as np, scankit
    >>> scankit.cumsum(np.array([3, 1, 4, 1, 5], dtype=np.int32))
    array([ 3,  4,  8,  9, 14], dtype=int32)

Functions: scan, cumsum, cumprod, cummax, cummin; sort, argsort, sort_by_key, topk; select,
compress, nonzero, flatnonzero, partition, unique, unique_consecutive; histogram, bincount; reduce,
argmin, argmax, min_max; segment_reduce, segment_csr, segmented_scan, scan_by_key, reduce_by_key;
algorithms.
Errors: TypeError (unsupported dtype), ValueError (shapes, axes, devices, names), MemoryError
(out of memory), RuntimeError (no GPU, or a build without CUDA). See docs/PYTHON.md.
"""

from . import _capi, _compact, _histogram, _reduce, _scan, _segment_ids, _segments, _sort, _topk
from ._arrays import memory_errors as _memory_errors

scan, cumsum, cumprod, cummax, cummin = map(_memory_errors, (_scan.scan, _scan.cumsum, _scan.cumprod, _scan.cummax,
                                                            _scan.cummin))
sort, argsort, sort_by_key = map(_memory_errors, (_sort.sort, _sort.argsort, _sort.sort_by_key))
topk = _memory_errors(_topk.topk)
select, compress, nonzero, flatnonzero, partition, unique, unique_consecutive = map(
    _memory_errors, (_compact.select, _compact.compress, _compact.nonzero, _compact.flatnonzero, _compact.partition,
                     _compact.unique, _compact.unique_consecutive))
histogram, bincount = map(_memory_errors, (_histogram.histogram, _histogram.bincount))
reduce, argmin, argmax, min_max = map(_memory_errors, (_reduce.reduce, _reduce.argmin, _reduce.argmax, _reduce.min_max))
segment_reduce, segment_csr, segmented_scan, scan_by_key, reduce_by_key = map(
    _memory_errors, (_segments.segment_reduce, _segments.segment_csr, _segments.segmented_scan,
                     _segments.scan_by_key, _segments.reduce_by_key))
segment_sum, segment_prod, segment_max, segment_min = map(
    _memory_errors, (_segment_ids.segment_sum, _segment_ids.segment_prod, _segment_ids.segment_max,
                     _segment_ids.segment_min))

__version__ = _capi.version()

__all__ = [
    "algorithms", "argmax", "argmin", "argsort", "bincount", "built_with_cuda", "compress", "cummax", "cummin",
    "cumprod", "cumsum", "device_count", "flatnonzero", "histogram", "min_max", "nonzero", "partition", "reduce",
    "reduce_by_key", "scan", "scan_by_key", "segment_csr", "segment_max", "segment_min", "segment_prod",
    "segment_reduce", "segment_sum", "segmented_scan", "select", "sort",
    "sort_by_key", "topk", "unique", "unique_consecutive",
]


def algorithms(primitive):
    """The algorithm names of ``"scan"``, ``"sort"``, ``"compact"`` (select, nonzero, partition,
    unique) or ``"histogram"`` (histogram, bincount), for the ``algorithm=`` argument.

    The GPU algorithms come first (the default first, except for scans, which list them in
    the order docs/ALGORITHMS.md teaches them and default to ``decoupled-lookback``), then the
    CPU ones (``cpu-...``), which host arrays take. A build without CUDA lists only the CPU
    ones.
    """
    return _capi.algorithm_names(primitive)


def built_with_cuda():
    """Whether the native library has the CUDA backend."""
    return _capi.built_with_cuda()


def device_count():
    """CUDA devices visible to scankit (0 without a GPU or without CUDA in the build)."""
    return _capi.device_count()
