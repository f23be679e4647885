"""Buffers: flat, typed storage on a device (a NumPy array on CPU, a CuPy array on CUDA), allocated on first use."""

from __future__ import annotations

from typing import Any

import numpy as np

from lazyarr.dtypes import DType
from lazyarr.kernels import runtime_cuda

DEVICES = ("CPU", "CUDA")


def canonical_device(device: str | None, default: str) -> str:
    """'cpu', 'CPU', 'cuda:0' -> 'CPU' / 'CUDA'.

    Raises:
        ValueError: an unknown device.
        runtime_cuda.CudaUnavailableError: CUDA without CuPy or without a usable GPU (a RuntimeError).
    """
    if device is None:
        device = default
    name = str(device).upper().split(":")[0]
    if name not in DEVICES:
        raise ValueError(f"unknown device {device!r}; lazyarr knows {', '.join(DEVICES)}")
    if name == "CUDA":
        runtime_cuda.require()
    return name


class Buffer:
    """`size` elements of `dtype` on `device`. Identity is storage identity: two Buffers never share memory."""

    __slots__ = ("size", "dtype", "device", "_array", "_address", "version", "__weakref__")

    def __init__(self, size: int, dtype: DType, device: str = "CPU", array: Any = None) -> None:
        self.size, self.dtype, self.device = size, dtype, device
        self._array = array
        self._address = 0
        # bumped by every in-place write of the storage once it has run (a realised ASSIGN, a jit replay's write):
        # autograd compares it with the version a remembered forward graph read (PyTorch's version counter)
        self.version = 0

    def __repr__(self) -> str:
        return f"<Buffer {self.device} {self.dtype.name}[{self.size}]>"

    @property
    def allocated(self) -> bool:
        return self._array is not None

    @property
    def array(self) -> Any:
        """The storage, flat (allocated on first access): a NumPy array on CPU, a device array on CUDA."""
        if self._array is None:
            if self.device == "CPU":
                self._array = np.empty(self.size, dtype=self.dtype.np_name)
            else:
                self._array = runtime_cuda.backend().empty(self.size, self.dtype.np_name)
        return self._array

    def numpy(self) -> np.ndarray:
        """The values as a flat NumPy array: the storage itself on CPU, a copy from the device on CUDA."""
        if self.device == "CPU":
            return self.array
        return runtime_cuda.backend().to_host(self.array)

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def kernel_array(self) -> Any:
        """The storage as kernels see it (float16 as uint16 bit patterns)."""
        a = self.array
        return a.view(np.uint16) if self.dtype.name == "float16" else a

    def address(self) -> int:
        """The address of the CPU storage (allocating it); stable, since a Buffer never replaces its storage."""
        if not self._address:
            self._address = int(self.array.ctypes.data)
        return self._address

    @staticmethod
    def from_numpy(a: np.ndarray, dtype: DType, device: str = "CPU") -> Buffer:
        """A buffer on `device` holding a C-order copy of `a` (on CPU a flat view is reused when `a` is already
        contiguous and owned)."""
        flat = np.ascontiguousarray(a, dtype=dtype.np_name).reshape(-1)
        if device == "CPU":
            return Buffer(flat.size, dtype, "CPU", flat)
        return Buffer(flat.size, dtype, device, runtime_cuda.backend().from_host(flat))
