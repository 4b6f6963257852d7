"""scankit.dist: scans, reductions, compactions, histograms, sorts and top-k of a distributed array.

A distributed array is one NumPy array (a shard) per MPI process; rank order defines the global
sequence, and shards may have any length, including zero. Every function here is collective:
each process of the communicator makes the same call with its own shard, and each gets its own
part of the result. The local work runs on scankit's CPU backend (oneTBB), the exchanges over
MPI (scankit/dist/mpi.hpp, docs/DISTRIBUTED.md).

    # mpirun -np 4 python3 script.py
    import numpy as np, scankit.dist as sd
    comm = sd.Communicator()                  # MPI_COMM_WORLD (or Communicator(mpi4py_comm))
    shard = np.random.default_rng(comm.rank).integers(0, 100, 1_000_000).astype(np.int32)
    part = sd.cumsum(comm, shard)             # this rank's part of the global cumsum
    kept = sd.select(comm, shard, greater_than=50)   # kept.values, kept.offset, kept.total
    counts = sd.bincount(comm, shard, 100)    # the global counts, on every rank
    mine = sd.sort(comm, shard)               # rank r: the r-th balanced share of the sorted array
    total = sd.reduce(comm, shard)            # the global sum, on every rank (also argmax, ...)
    best = sd.topk(comm, shard, 10)           # best.values, best.indices (global positions)

GPU arrays (CuPy, PyTorch) run on GPU ranks over NCCL with ``NcclCommunicator(devices)``: one
process drives the listed GPUs, and each call takes a list of arrays, one per GPU in that order,
and returns a list (scankit/dist/nccl.cuh). The work is ordered on each GPU's current stream,
as the one-GPU calls are. The reductions and topk run on CPU ranks only.

    comm = sd.NcclCommunicator([0, 1])
    parts = sd.cumsum(comm, [x0, x1])         # x0 on GPU 0, x1 on GPU 1

Errors reach every rank: a call that the ranks do not agree on (different dtypes or operators)
raises ValueError everywhere; a rank whose call fails raises its own error and the others
RuntimeError; a rank that never makes the call leaves the others waiting until the
communicator's timeout (5 minutes), then RuntimeError.
"""

import ctypes
import operator
import os
from collections import namedtuple

import numpy as np

from . import _capi
from ._arrays import memory_errors
from ._core import host_scalar

_here = os.path.dirname(os.path.abspath(__file__))
_libraries = {}


def _load(name, needs, protos, mode=ctypes.DEFAULT_MODE):
    """The native library `name` next to this file, its prototypes set, loaded once."""
    lib = _libraries.get(name)
    if lib is None:
        path = os.path.join(_here, name)
        if not os.path.exists(path):
            raise ImportError(f"scankit.dist needs {name}, which is built where CMake finds {needs}; "
                              "this scankit was built without it")
        lib = ctypes.CDLL(path, mode=mode)
        for fn, (res, args) in protos.items():
            f = getattr(lib, fn)
            f.restype = res
            f.argtypes = [ctypes.POINTER(t) if isinstance(t, type) and issubclass(t, ctypes.Structure) else t
                          for t in args]
        _libraries[name] = lib
    return lib


_i, _i64, _p = ctypes.c_int, ctypes.c_int64, ctypes.c_void_p


_u, _f = ctypes.c_uint64, ctypes.c_double
_args = _capi._args
# The argument blocks of capi_dist.h, by their entries' short names.
ARGS = {
    "dist_scan": _args("dist_scan", (_u, "comm"), (_i64, "dtype op exclusive"), (_u, "init in out"), (_i64, "n"),
                       (_u, "total")),
    "dist_reduce": _args("dist_reduce", (_u, "comm"), (_i64, "dtype op"), (_u, "in"), (_i64, "n"), (_u, "result")),
    "dist_topk": _args("dist_topk", (_u, "comm"), (_i64, "dtype"), (_u, "in"), (_i64, "n k largest"),
                       (_u, "values indices")),
    "dist_select_if": _args("dist_select_if", (_u, "comm"), (_i64, "dtype pred"), (_u, "threshold"), (_i64, "remove"),
                            (_u, "in out"), (_i64, "n"), (_u, "result")),
    "dist_histogram_even": _args("dist_histogram_even", (_u, "comm"), (_i64, "dtype"), (_u, "samples"), (_i64, "n"),
                                 (_u, "counts"), (_i64, "bins"), (_f, "lower upper")),
    "dist_bincount": _args("dist_bincount", (_u, "comm"), (_i64, "dtype"), (_u, "keys"), (_i64, "n"), (_u, "counts"),
                           (_i64, "bins")),
    "dist_sort": _args("dist_sort", (_u, "comm"), (_i64, "dtype"), (_u, "keys"), (_i64, "n descending"),
                       (_u, "result result_n")),
    "nccl_all_devices": _args("nccl_all_devices", (_u, "devices"), (_i64, "count"), (_u, "comm")),
    "nccl_scan": _args("nccl_scan", (_u, "comm"), (_i64, "dtype op exclusive"), (_u, "init in out n streams total")),
    "nccl_select_if": _args("nccl_select_if", (_u, "comm"), (_i64, "dtype pred"),
                            (_u, "threshold in out n streams result")),
    "nccl_histogram_even": _args("nccl_histogram_even", (_u, "comm"), (_i64, "dtype"), (_u, "samples n counts"),
                                 (_i64, "bins"), (_f, "lower upper"), (_u, "streams")),
    "nccl_bincount": _args("nccl_bincount", (_u, "comm"), (_i64, "dtype"), (_u, "keys n counts"), (_i64, "bins"),
                           (_u, "streams")),
    "nccl_sort": _args("nccl_sort", (_u, "comm"), (_i64, "dtype"), (_u, "in n out capacity"), (_i64, "descending"),
                       (_u, "streams sizes")),
}

# Prototypes as capi_dist.h declares them (python/tests/test_capi_abi.py compares the two); an
# argument block is declared by its Structure and passed by reference.
DIST_PROTOS = {
    "sk_dist_last_error": (ctypes.c_char_p, []),
    "sk_dist_world": (_i, [ctypes.POINTER(_p)]),
    "sk_dist_adopt": (_i, [ctypes.c_size_t, ctypes.POINTER(_p)]),
    "sk_dist_free": (None, [_p]),
    "sk_dist_rank": (_i, [_p]),
    "sk_dist_size": (_i, [_p]),
    "sk_dist_scan": (_i, [ARGS["dist_scan"]]),
    "sk_dist_reduce": (_i, [ARGS["dist_reduce"]]),
    "sk_dist_topk": (_i, [ARGS["dist_topk"]]),
    "sk_dist_select_if": (_i, [ARGS["dist_select_if"]]),
    "sk_dist_histogram_even": (_i, [ARGS["dist_histogram_even"]]),
    "sk_dist_bincount": (_i, [ARGS["dist_bincount"]]),
    "sk_dist_sort": (_i, [ARGS["dist_sort"]]),
    "sk_dist_take": (None, [_p, _p]),
}
NCCL_PROTOS = {
    "sk_nccl_last_error": (ctypes.c_char_p, []),
    "sk_nccl_all_devices": (_i, [ARGS["nccl_all_devices"]]),
    "sk_nccl_free": (None, [_p]),
    "sk_nccl_size": (_i, [_p]),
    "sk_nccl_scan": (_i, [ARGS["nccl_scan"]]),
    "sk_nccl_select_if": (_i, [ARGS["nccl_select_if"]]),
    "sk_nccl_histogram_even": (_i, [ARGS["nccl_histogram_even"]]),
    "sk_nccl_bincount": (_i, [ARGS["nccl_bincount"]]),
    "sk_nccl_sort": (_i, [ARGS["nccl_sort"]]),
}


def _block(name, *values):
    """A reference to sk_<name>'s argument block holding `values` in its field order (address
    fields: ints, None, handles, ctypes arrays and objects, as _capi.address takes them)."""
    cls = ARGS[name]
    return ctypes.byref(cls(*[_capi.address(v) if t is _u else v for v, (_, t) in zip(values, cls._fields_)]))


def _library():
    # Global, so that MPI's own plugins find libmpi's symbols.
    return _load("libscankit_dist_capi.so", "MPI (Debian: libopenmpi-dev and openmpi-bin)", DIST_PROTOS,
                 ctypes.RTLD_GLOBAL)


def _nccl_library():
    return _load("libscankit_dist_nccl_capi.so", "CUDA and NCCL", NCCL_PROTOS)


def _call(f, *args):
    status = f(*args)
    if status != _capi.OK:
        _capi.raise_status(status, _library().sk_dist_last_error())


def _ncall(f, *args):
    status = f(*args)
    if status != _capi.OK:
        _capi.raise_status(status, _nccl_library().sk_nccl_last_error())


class _Handle:
    """A communicator of the native library: closed by close(), `with`, or when collected."""

    _handle = None

    def close(self):
        if self._handle is not None and self._handle.value:
            self._free(self._handle)
        self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - nothing to report to at interpreter exit
            pass

    def _h(self):
        if self._handle is None:
            raise ValueError("scankit.dist: the communicator is closed")
        return self._handle


class Communicator(_Handle):
    """The MPI processes that hold the shards of a distributed array.

    ``Communicator()`` is MPI_COMM_WORLD (MPI is initialised here if nothing has initialised
    it, and finalised at exit): run the script under ``mpirun``/``mpiexec``. ``Communicator(c)``
    adopts an mpi4py communicator ``c``. Either way scankit works on a duplicate of it, so its
    messages never mix with the caller's.
    """

    def __init__(self, comm=None):
        lib = _library()
        handle = ctypes.c_void_p()
        if comm is None:
            _call(lib.sk_dist_world, ctypes.byref(handle))
        else:
            try:
                from mpi4py import MPI
            except ImportError as e:
                raise TypeError("Communicator(comm) takes an mpi4py communicator; mpi4py is not installed") from e
            if not isinstance(comm, MPI.Comm):
                raise TypeError(f"Communicator(comm) takes an mpi4py communicator, not {type(comm).__name__}")
            _call(lib.sk_dist_adopt, MPI._handleof(comm), ctypes.byref(handle))
        self._handle = handle
        self.rank = lib.sk_dist_rank(handle)
        self.size = lib.sk_dist_size(handle)

    def _free(self, handle):
        """Frees the duplicate communicator (collective, as MPI_Comm_free)."""
        _library().sk_dist_free(handle)

    def __repr__(self):
        return f"scankit.dist.Communicator(rank={self.rank}, size={self.size})"


class NcclCommunicator(_Handle):
    """GPU ranks over NCCL, all driven by this process: ``devices`` (every visible GPU when
    None) are ranks 0, 1, ... in that order (ncclCommInitAll). Calls take and return one array
    per GPU."""

    def __init__(self, devices=None):
        lib = _nccl_library()
        if devices is None:
            devices = list(range(_capi.device_count()))
        devices = [int(d) for d in devices]
        arr = (ctypes.c_int * len(devices))(*devices)
        handle = ctypes.c_void_p()
        _ncall(lib.sk_nccl_all_devices, _block("nccl_all_devices", arr, len(devices), ctypes.addressof(handle)))
        self._handle = handle
        self.devices = devices
        self.size = lib.sk_nccl_size(handle)

    def _free(self, handle):
        _nccl_library().sk_nccl_free(handle)

    def __repr__(self):
        return f"scankit.dist.NcclCommunicator(devices={self.devices})"


def _gpu_shards(comm, xs, what, types):
    """The Arr of each GPU's shard: one 1-D array per rank, each on its rank's GPU, of one
    library and one dtype among `types`."""
    from ._arrays import wrap

    if not isinstance(xs, (list, tuple)) or len(xs) != comm.size:
        raise ValueError(f"scankit.dist.{what}: pass a list of {comm.size} arrays, one per GPU of the communicator")
    shards = []
    for r, x in enumerate(xs):
        a = wrap(x)
        if a.device != comm.devices[r]:
            raise ValueError(f"scankit.dist.{what}: shard {r} must be on GPU {comm.devices[r]}")
        if a.ndim != 1:
            raise ValueError(f"scankit.dist.{what}: a shard is 1-D, not {a.ndim}-D")
        if a.dtype not in types:
            raise TypeError(f"scankit.dist.{what} does not take {a.dtype} arrays on GPUs; supported: {', '.join(types)}")
        if not a.ops.is_contiguous(a.x):
            a = a.with_array(a.ops.contiguous(a.x))
        shards.append(a)
    if len({(a.ops.name, a.dtype) for a in shards}) > 1:
        raise ValueError(f"scankit.dist.{what}: the shards must be arrays of one library and one dtype")
    return shards


def _addresses(values):
    return (ctypes.c_size_t * len(values))(*values)


def _gpu_args(shards):
    """(input addresses, sizes, caller streams) of the shards."""
    return (_addresses([a.ops.ptr(a.x) for a in shards]),
            (ctypes.c_int64 * len(shards))(*[a.size for a in shards]),
            _addresses([a.ops.stream(a.device) for a in shards]))


_GPU_COMPACT_TYPES = ("int32", "int64", "uint32", "uint64", "float32", "float64")


def _gpu_scan(comm, xs, name, exclusive, initial, return_total):
    sh = _gpu_shards(comm, xs, "scan", _SCAN_TYPES)
    dt = sh[0].dtype
    outs = [a.ops.empty((a.size,), dt, a.device) for a in sh]
    ins, ns, streams = _gpu_args(sh)
    total = np.empty(1, dt)
    init = None if initial is None else host_scalar(initial, dt)
    _ncall(_nccl_library().sk_nccl_scan, _block(
        "nccl_scan", comm._h(), _capi.DTYPE_CODES[dt], _capi.OP_CODES[name], 1 if exclusive else 0,
        None if init is None else init.ctypes.data, ins, _addresses([a.ops.ptr(o) for a, o in zip(sh, outs)]), ns,
        streams, total.ctypes.data))
    outs = [a.ops.wrap_result(o) for a, o in zip(sh, outs)]
    return (outs, total[0]) if return_total else outs


def _gpu_select(comm, xs, pred, threshold):
    sh = _gpu_shards(comm, xs, "select", _GPU_COMPACT_TYPES)
    dt = sh[0].dtype
    outs = [a.ops.empty((a.size,), dt, a.device) for a in sh]
    ins, ns, streams = _gpu_args(sh)
    result = (ctypes.c_int64 * (3 * len(sh)))()
    thr = None if threshold is None else host_scalar(threshold, dt)
    _ncall(_nccl_library().sk_nccl_select_if, _block(
        "nccl_select_if", comm._h(), _capi.DTYPE_CODES[dt], pred, None if thr is None else thr.ctypes.data, ins,
        _addresses([a.ops.ptr(o) for a, o in zip(sh, outs)]), ns, streams, result))
    return [Selection(a.ops.wrap_result(o[: result[3 * r]]), int(result[3 * r + 1]), int(result[3 * r + 2]))
            for r, (a, o) in enumerate(zip(sh, outs))]


def _gpu_counts(comm, xs, what, types, bins, call):
    sh = _gpu_shards(comm, xs, what, types)
    counts = [a.ops.empty((max(bins, 0),), "int64", a.device) for a in sh]
    ins, ns, streams = _gpu_args(sh)
    call(sh[0].dtype, ins, ns, _addresses([a.ops.ptr(c) for a, c in zip(sh, counts)]), streams)
    return [a.ops.wrap_result(c) for a, c in zip(sh, counts)]


def _gpu_sort(comm, xs, descending):
    sh = _gpu_shards(comm, xs, "sort", _NUMBER_TYPES)
    dt = sh[0].dtype
    total, p = sum(a.size for a in sh), len(sh)
    caps = [total // p + (1 if r < total % p else 0) for r in range(p)]
    outs = [a.ops.empty((c,), dt, a.device) for a, c in zip(sh, caps)]
    ins, ns, streams = _gpu_args(sh)
    sizes = (ctypes.c_int64 * p)()
    _ncall(_nccl_library().sk_nccl_sort, _block(
        "nccl_sort", comm._h(), _capi.DTYPE_CODES[dt], ins, ns, _addresses([a.ops.ptr(o) for a, o in zip(sh, outs)]),
        (ctypes.c_int64 * p)(*caps), 1 if descending else 0, streams, sizes))
    return [a.ops.wrap_result(o[: sizes[r]]) for r, (a, o) in enumerate(zip(sh, outs))]


Selection = namedtuple("Selection", ["values", "offset", "total"])
Selection.__doc__ = """What select() gives each rank: its kept items, the global position of the
first of them, and the number kept over all ranks."""

_SCAN_TYPES = ("int32", "int64", "uint32", "uint64", "float32", "float64")
_NUMBER_TYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
_HISTOGRAM_TYPES = ("uint8", "uint16", "int32", "uint32", "int64", "float32", "float64")
_BINCOUNT_TYPES = ("uint8", "uint16", "int32", "uint32", "int64")


def _shard(x, what, types):
    """x as a contiguous 1-D NumPy array of one of `types`."""
    if not isinstance(x, np.ndarray):
        if hasattr(x, "__cuda_array_interface__") or hasattr(x, "__dlpack_device__"):
            raise TypeError(f"scankit.dist.{what}: an MPI Communicator's shards are NumPy arrays; GPU arrays "
                            "go with an NcclCommunicator")
        x = np.asarray(x)
    if x.ndim != 1:
        raise ValueError(f"scankit.dist.{what}: a shard is 1-D, not {x.ndim}-D")
    name = x.dtype.name
    if name not in types:
        raise TypeError(f"scankit.dist.{what} does not take {name} arrays; supported: {', '.join(types)}")
    return np.ascontiguousarray(x)


def _ptr(a):
    return a.ctypes.data if a.size else None


@memory_errors
def scan(comm, x, op="sum", *, exclusive=False, initial=None, return_total=False):
    """This rank's part of the prefix scan of the global sequence (rank order).

    ``op``: ``"sum"``, ``"prod"``, ``"min"``, ``"max"``, or for integers ``"and"``, ``"or"``,
    ``"xor"``. ``initial`` (the same on every rank) is the carry-in of the whole sequence.
    With ``return_total=True``, also the global carry-out (the same on every rank).
    Types: int32, int64, uint32, uint64, float32, float64.
    """
    from ._scan import _OPS

    name = _OPS.get(op) if isinstance(op, str) else None
    if name is None:
        raise ValueError(f"scan: unknown operator {op!r}; choose from sum, prod, min, max, and, or, xor")
    if isinstance(comm, NcclCommunicator):
        return _gpu_scan(comm, x, name, exclusive, initial, return_total)
    a = _shard(x, "scan", _SCAN_TYPES)
    out = np.empty_like(a)
    total = np.empty(1, a.dtype)
    init = None if initial is None else host_scalar(initial, a.dtype.name)
    _call(_library().sk_dist_scan, _block(
        "dist_scan", comm._h(), _capi.DTYPE_CODES[a.dtype.name], _capi.OP_CODES[name], 1 if exclusive else 0,
        None if init is None else init.ctypes.data, _ptr(a), _ptr(out), a.size, total.ctypes.data))
    return (out, total[0]) if return_total else out


def cumsum(comm, x, *, exclusive=False):
    """This rank's part of the cumulative sum of the global sequence; see :func:`scan`."""
    return scan(comm, x, "sum", exclusive=exclusive)


def _reduce(comm, x, code, what, result):
    if isinstance(comm, NcclCommunicator):
        raise TypeError(f"scankit.dist.{what} runs on CPU ranks (an MPI Communicator) only")
    a = _shard(x, what, _SCAN_TYPES if code < _capi.REDUCE_ARGMIN else _NUMBER_TYPES)
    _call(_library().sk_dist_reduce, _block("dist_reduce", comm._h(), _capi.DTYPE_CODES[a.dtype.name], code, _ptr(a),
                                            a.size, result.ctypes.data))
    return a.dtype


@memory_errors
def reduce(comm, x, op="sum"):
    """The reduction of the global sequence, on every rank (the same value everywhere: the
    ranks' own results are combined in rank order). ``op``: ``"sum"``, ``"prod"``, ``"min"``,
    ``"max"``, or for integers ``"and"``, ``"or"``, ``"xor"``. Types: int32, int64, uint32,
    uint64, float32, float64."""
    from ._scan import _OPS

    name = _OPS.get(op) if isinstance(op, str) else None
    if name is None:
        raise ValueError(f"reduce: unknown operator {op!r}; choose from sum, prod, min, max, and, or, xor")
    a = _shard(x, "reduce", _SCAN_TYPES)
    result = np.empty(1, a.dtype)
    _reduce(comm, a, _capi.OP_CODES[name], "reduce", result)
    return result[0]


@memory_errors
def argmin(comm, x):
    """The first global position (rank order, then shard order) of the smallest item of the
    global sequence, on every rank; a NaN where there is one, as ``numpy.argmin``. Raises
    ValueError on every rank for an empty sequence. Types: 1- to 8-byte integers, float32,
    float64 (as :func:`argmax` and :func:`min_max`)."""
    result = np.empty(1, np.int64)
    _reduce(comm, x, _capi.REDUCE_ARGMIN, "argmin", result)
    return int(result[0])


@memory_errors
def argmax(comm, x):
    """The first global position of the largest item; see :func:`argmin`."""
    result = np.empty(1, np.int64)
    _reduce(comm, x, _capi.REDUCE_ARGMAX, "argmax", result)
    return int(result[0])


@memory_errors
def min_max(comm, x):
    """``(min, max)`` of the global sequence, on every rank (NaN if any item is NaN)."""
    a = _shard(x, "min_max", _NUMBER_TYPES)
    result = np.empty(2, a.dtype)
    _reduce(comm, a, _capi.REDUCE_MIN_MAX, "min_max", result)
    return result[0], result[1]


@memory_errors
def topk(comm, x, k, *, largest=True):
    """The ``k`` largest (or smallest) items of the global sequence and their global positions,
    sorted (the largest descending, the smallest ascending, ties by the smaller position), as
    ``TopK(values, indices)`` on every rank. ``0 <= k <=`` the global length, the same ``k``
    and ``largest`` on every rank. Types: every integer type, float32, float64 (NaNs above
    +inf, as ``scankit.topk``)."""
    from ._topk import TopK

    if isinstance(comm, NcclCommunicator):
        raise TypeError("scankit.dist.topk runs on CPU ranks (an MPI Communicator) only")
    a = _shard(x, "topk", _NUMBER_TYPES)
    k = operator.index(k)
    # A bad k is the library's to report: every rank then raises, not this one alone.
    values = np.empty(max(k, 0), a.dtype)
    indices = np.empty(max(k, 0), np.int64)
    _call(_library().sk_dist_topk, _block("dist_topk", comm._h(), _capi.DTYPE_CODES[a.dtype.name], _ptr(a), a.size, k,
                                          1 if largest else 0, _ptr(values), _ptr(indices)))
    return TopK(values, indices)


@memory_errors
def select(comm, x, *, less_than=None, greater_than=None):
    """The items of this rank's shard that are nonzero, or ``< less_than``, or
    ``> greater_than``, in order, with their place in the global result: a
    ``Selection(values, offset, total)``."""
    from ._compact import _pred

    pred, threshold = _pred(less_than, greater_than, "select")
    if isinstance(comm, NcclCommunicator):
        return _gpu_select(comm, x, pred, threshold)
    a = _shard(x, "select", _NUMBER_TYPES)
    out = np.empty_like(a)
    result = (ctypes.c_int64 * 3)()
    thr = None if threshold is None else host_scalar(threshold, a.dtype.name)
    _call(_library().sk_dist_select_if, _block(
        "dist_select_if", comm._h(), _capi.DTYPE_CODES[a.dtype.name], pred, None if thr is None else thr.ctypes.data,
        0, _ptr(a), _ptr(out), a.size, result))
    return Selection(out[: result[0]], int(result[1]), int(result[2]))


@memory_errors
def histogram(comm, x, bins, range):  # noqa: A002 - numpy.histogram's name
    """The global counts (int64, on every rank) of ``bins`` even bins over ``range = (lower,
    upper)``. Unlike ``numpy.histogram`` the last bin is half-open too: a sample equal to
    ``upper`` is not counted."""
    bins = int(bins)
    lower, upper = (float(v) for v in range)
    if isinstance(comm, NcclCommunicator):
        return _gpu_counts(comm, x, "histogram", _HISTOGRAM_TYPES, bins, lambda dt, ins, ns, cs, st: _ncall(
            _nccl_library().sk_nccl_histogram_even,
            _block("nccl_histogram_even", comm._h(), _capi.DTYPE_CODES[dt], ins, ns, cs, bins, lower, upper, st)))
    a = _shard(x, "histogram", _HISTOGRAM_TYPES)
    counts = np.zeros(max(bins, 0), np.uint64)
    _call(_library().sk_dist_histogram_even, _block(
        "dist_histogram_even", comm._h(), _capi.DTYPE_CODES[a.dtype.name], _ptr(a), a.size, _ptr(counts), bins, lower,
        upper))
    return counts.view(np.int64)


@memory_errors
def bincount(comm, x, length):
    """The global counts (int64, on every rank) of the keys 0, 1, ..., ``length - 1``; other
    keys are not counted (the global maximum is not looked for: pass the length)."""
    length = int(length)
    if isinstance(comm, NcclCommunicator):
        return _gpu_counts(comm, x, "bincount", _BINCOUNT_TYPES, length, lambda dt, ins, ns, cs, st: _ncall(
            _nccl_library().sk_nccl_bincount,
            _block("nccl_bincount", comm._h(), _capi.DTYPE_CODES[dt], ins, ns, cs, length, st)))
    a = _shard(x, "bincount", _BINCOUNT_TYPES)
    counts = np.zeros(max(length, 0), np.uint64)
    _call(_library().sk_dist_bincount, _block(
        "dist_bincount", comm._h(), _capi.DTYPE_CODES[a.dtype.name], _ptr(a), a.size, _ptr(counts), length))
    return counts.view(np.int64)


@memory_errors
def sort(comm, x, *, descending=False):
    """This rank's share of the global sort: rank r gets the r-th of the ranks' balanced shares
    (``n // size`` items, one more on the first ``n % size`` ranks, n the global length) of the
    stably sorted global sequence, whatever the shards' lengths and the keys' distribution.
    Floats in IEEE total order (NaNs last, -0 before +0)."""
    if isinstance(comm, NcclCommunicator):
        return _gpu_sort(comm, x, descending)
    a = _shard(x, "sort", _NUMBER_TYPES)
    lib = _library()
    result, n = ctypes.c_void_p(), ctypes.c_int64(0)
    _call(lib.sk_dist_sort, _block("dist_sort", comm._h(), _capi.DTYPE_CODES[a.dtype.name], _ptr(a), a.size,
                                   1 if descending else 0, ctypes.addressof(result), ctypes.addressof(n)))
    try:
        out = np.empty(n.value, a.dtype)
    except MemoryError:
        lib.sk_dist_take(result, None)
        raise
    lib.sk_dist_take(result, _ptr(out))
    return out
