"""Buffers: flat, typed storage on a device (a NumPy array on CPU), allocated on first use."""

from __future__ import annotations

from typing import Any

import numpy as np

from lazyarr.dtypes import DType

DEVICES = ("CPU", "CUDA")


def canonical_device(device: str | None, default: str) -> str:
    """'cpu', 'CPU', 'cuda:0' -> 'CPU' / 'CUDA'; ValueError for unknown devices."""
    if device is None:
        device = default
    name = str(device).upper().split(":")[0]
    if name not in DEVICES:
        raise ValueError(f"unknown device {device!r}; lazyarr knows {', '.join(DEVICES)}")
    return name


class Buffer:
    """`size` elements of `dtype` on `device`. Identity is storage identity: two Buffers never share memory."""

    __slots__ = ("size", "dtype", "device", "_array", "__weakref__")

    def __init__(self, size: int, dtype: DType, device: str = "CPU", array: Any = None) -> None:
        self.size, self.dtype, self.device = size, dtype, device
        self._array = array

    def __repr__(self) -> str:
        return f"<Buffer {self.device} {self.dtype.name}[{self.size}]>"

    @property
    def allocated(self) -> bool:
        return self._array is not None

    @property
    def array(self) -> np.ndarray:
        """The storage as a flat NumPy array (allocated on first access)."""
        if self._array is None:
            self._array = np.empty(self.size, dtype=self.dtype.np_name)
        return self._array

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def kernel_array(self) -> np.ndarray:
        """The storage as the CPU kernels see it (float16 as uint16 bit patterns)."""
        a = self.array
        return a.view(np.uint16) if self.dtype.name == "float16" else a

    @staticmethod
    def from_numpy(a: np.ndarray, dtype: DType) -> Buffer:
        """A buffer holding a C-order copy of `a` (a flat view is reused when `a` is already contiguous and owned)."""
        flat = np.ascontiguousarray(a, dtype=dtype.np_name).reshape(-1)
        return Buffer(flat.size, dtype, "CPU", flat)
