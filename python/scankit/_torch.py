"""PyTorch tensors as scankit's arrays: CPU tensors on the CPU backend, CUDA tensors on their GPU
and the current stream, outputs from PyTorch's allocator. Imported only when an input is one."""

import numpy as np

from ._arrays import translate_oom


class TorchOps:
    name = "torch"

    def __init__(self):
        import torch

        self.torch = torch
        self.by_name = {
            "bool": torch.bool, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
            "int64": torch.int64, "uint8": torch.uint8, "float16": torch.float16,
            "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
        }
        for n in ("uint16", "uint32", "uint64"):
            if hasattr(torch, n):
                self.by_name[n] = getattr(torch, n)
        self.names = {v: k for k, v in self.by_name.items()}
        self._devices = {}

    def dtype_name(self, x):
        n = self.names.get(x.dtype)  # (a default argument to get() would format the dtype every call)
        return str(x.dtype).replace("torch.", "") if n is None else n

    def device(self, x):
        if x.is_cuda:
            return x.get_device()
        return -1 if x.device.type == "cpu" else -2

    def ndim(self, x):
        return x.dim()

    def ptr(self, x):
        return x.data_ptr()

    def stream(self, device):
        return self._raw_stream(device)

    def _raw_stream(self, device):
        # torch's own cheap accessor of the current stream's handle (the one Triton uses);
        # current_stream() builds a Stream object on every call.
        raw = getattr(self.torch._C, "_cuda_getCurrentRawStream", None)
        if raw is not None:
            self._raw_stream = raw
            return raw(device)
        self._raw_stream = lambda d: self.torch.cuda.current_stream(d).cuda_stream
        return self._raw_stream(device)

    def flat_device(self, x):
        """x's GPU if x is a contiguous 1-D CUDA tensor, else -1 (the small calls' fast paths)."""
        return x.get_device() if x.is_cuda and x.dim() == 1 and x.is_contiguous() else -1

    def empty_flat_like(self, x, device):
        """An uninitialized array like the contiguous 1-D `x` (dtype, device)."""
        try:
            return self.torch.empty_like(x)
        except RuntimeError as e:
            raise (translate_oom(e) or e) from e

    def capturing(self):
        """Whether the current stream is capturing a CUDA graph."""
        f = getattr(self.torch._C, "_cuda_isCurrentStreamCapturing", None)
        if f is None:
            f = self.torch.cuda.is_current_stream_capturing
        self.capturing = f
        return f()

    def _dev(self, device):
        d = self._devices.get(device)
        if d is None:
            d = self.torch.device("cuda", device) if device >= 0 else self.torch.device("cpu")
            self._devices[device] = d
        return d

    def _dtype(self, dtype):
        name = dtype if isinstance(dtype, str) else np.dtype(dtype).name
        t = self.by_name.get(name)
        if t is None:
            t = getattr(self.torch, name, None)
            if not isinstance(t, self.torch.dtype):
                raise TypeError(f"PyTorch has no dtype {name}")
            self.by_name[name] = t
            self.names[t] = name
        return t

    def empty(self, shape, dtype, device):
        try:
            return self.torch.empty(shape, dtype=self._dtype(dtype), device=self._dev(device))
        except RuntimeError as e:
            raise (translate_oom(e) or e) from e

    def empty_like(self, x, dtype, device):
        # torch.empty_like skips parsing a dtype and a device, most of torch.empty's time in a
        # small call's allocation.
        t = self._dtype(dtype)
        if x.dtype != t:
            return self.empty(tuple(x.shape), dtype, device)
        try:
            return self.torch.empty_like(x, memory_format=self.torch.contiguous_format)
        except RuntimeError as e:
            raise (translate_oom(e) or e) from e

    def zeros(self, shape, dtype, device):
        try:
            return self.torch.zeros(shape, dtype=self._dtype(dtype), device=self._dev(device))
        except RuntimeError as e:
            raise (translate_oom(e) or e) from e

    def contiguous(self, x):
        return x.contiguous()

    def is_contiguous(self, x):
        return x.is_contiguous()

    def astype(self, x, dtype):
        return x.to(self._dtype(dtype))

    def view(self, x, dtype):
        return x.view(self._dtype(dtype))

    def reshape(self, x, shape):
        return x.reshape(shape)

    def moveaxis(self, x, src, dst):
        return self.torch.movedim(x, src, dst)

    def from_numpy(self, a, device):
        t = self.torch.from_numpy(np.ascontiguousarray(a))
        return t.to(self._dev(device)) if device >= 0 else t

    def to_numpy(self, x):
        return x.detach().cpu().numpy()

    def ne_zero(self, x):
        return x != 0

    def logical_not(self, x):
        return self.torch.logical_not(x)

    _signed_twin = {"uint16": "int16", "uint32": "int32", "uint64": "int64"}

    def take(self, x, idx, axis=None):
        twin = self._signed_twin.get(self.dtype_name(x))
        if twin is not None:
            # torch's unsigned 16-64-bit types have no gather kernels: move their bits as signed
            return self.view(self.take(self.view(x, twin), idx, axis), self.dtype_name(x))
        if axis is None:
            return x.reshape(-1)[idx]
        return self.torch.index_select(x, axis, idx)

    def max(self, x):
        return x.max().item()

    def min(self, x):
        return x.min().item()

    def minmax(self, x):
        lo, hi = self.torch.aminmax(x)  # one pass, one round trip
        return tuple(self.torch.stack([lo, hi]).tolist())

    def concat(self, xs):
        return self.torch.cat(xs)

    def floor_divide(self, x, d):
        return self.torch.div(x, d, rounding_mode="floor")

    def remainder(self, x, d):
        return self.torch.remainder(x, d)

    def arange(self, n, device):
        return self.torch.arange(n, dtype=self.torch.int64, device=self._dev(device))

    def flip(self, x):
        return self.torch.flip(x, (0,))

    def copy_into(self, dst, src):
        dst.copy_(src)

    def wrap_result(self, x):
        return x
