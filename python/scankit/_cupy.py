"""CuPy arrays as scankit's arrays: on their GPU and CuPy's current stream, outputs from CuPy's
memory pool. Imported only when an input is one."""

from ._numpy import numpy_dtype_name


class CupyOps:
    name = "cupy"

    def __init__(self):
        import cupy

        self.cp = cupy
        # ndarray's own C-contiguity field where CuPy exposes it: x.flags builds a Flags object on
        # every call, a sizeable part of a small call's cost.
        if not hasattr(cupy.ndarray, "_c_contiguous"):
            self.flat_device = self._flat_device_flags

    def dtype_name(self, x):
        return numpy_dtype_name(x.dtype)

    def device(self, x):
        return x.data.device_id  # x.device builds a Device object on every call

    def ndim(self, x):
        return x.ndim

    def ptr(self, x):
        return x.data.ptr

    def stream(self, device):
        try:
            # CuPy's lookup by device id: no Device context to enter and leave on every call.
            return self.cp.cuda.get_current_stream(device).ptr
        except TypeError:  # a CuPy whose get_current_stream takes no device
            with self.cp.cuda.Device(device):
                return self.cp.cuda.get_current_stream().ptr

    def empty_like(self, x, dtype, device):
        # x's own dtype object where it is the result's: CuPy then skips parsing a dtype name.
        return self.empty(x.shape, x.dtype if x.dtype.name == dtype else dtype, device)

    def empty(self, shape, dtype, device):
        if self.cp.cuda.runtime.getDevice() == device:
            return self.cp.empty(shape, dtype=dtype)
        with self.cp.cuda.Device(device):
            return self.cp.empty(shape, dtype=dtype)

    def flat_device(self, x):
        """x's GPU if x is a contiguous 1-D array, else -1 (the small calls' fast paths)."""
        return x.data.device_id if x.ndim == 1 and x._c_contiguous else -1

    def _flat_device_flags(self, x):
        return x.data.device_id if x.ndim == 1 and x.flags.c_contiguous else -1

    def empty_flat_like(self, x, device):
        """An uninitialized array like the contiguous 1-D `x` (dtype, device)."""
        if self.cp.cuda.runtime.getDevice() == device:
            return self.cp.ndarray(x.shape, x.dtype)  # what cupy.empty calls, less a Python frame
        return self.empty(x.shape, x.dtype, device)

    def capturing(self):
        """Whether the current stream is capturing a CUDA graph."""
        s = self.cp.cuda.get_current_stream()
        return bool(getattr(s, "is_capturing", lambda: False)())

    def zeros(self, shape, dtype, device):
        with self.cp.cuda.Device(device):
            return self.cp.zeros(shape, dtype=dtype)

    def contiguous(self, x):
        with x.device:
            return self.cp.ascontiguousarray(x)

    def is_contiguous(self, x):
        return x.flags.c_contiguous

    def astype(self, x, dtype):
        with x.device:
            return x.astype(dtype)

    def view(self, x, dtype):
        return x.view(dtype)

    def reshape(self, x, shape):
        return x.reshape(shape)

    def moveaxis(self, x, src, dst):
        return self.cp.moveaxis(x, src, dst)

    def from_numpy(self, a, device):
        with self.cp.cuda.Device(device):
            return self.cp.asarray(a)

    def to_numpy(self, x):
        return self.cp.asnumpy(x)

    def ne_zero(self, x):
        with x.device:
            return x != 0

    def logical_not(self, x):
        with x.device:
            return self.cp.logical_not(x)

    def take(self, x, idx, axis=None):
        with x.device:
            return self.cp.take(x, idx, axis=axis)

    def max(self, x):
        with x.device:
            return x.max().item()

    def min(self, x):
        with x.device:
            return x.min().item()

    def minmax(self, x):
        with x.device:
            lo, hi = self.cp.stack([x.min(), x.max()]).get().tolist()  # one round trip
            return lo, hi

    def concat(self, xs):
        with xs[0].device:
            return self.cp.concatenate(xs)

    def floor_divide(self, x, d):
        with x.device:
            return x // d

    def remainder(self, x, d):
        with x.device:
            return x % d

    def arange(self, n, device):
        with self.cp.cuda.Device(device):
            return self.cp.arange(n, dtype=self.cp.int64)

    def flip(self, x):
        return x[::-1]

    def copy_into(self, dst, src):
        with dst.device:
            dst[...] = src

    def wrap_result(self, x):
        return x
