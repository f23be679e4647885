"""Buffers: flat, typed storage on a device (a NumPy array on CPU, a CuPy array on CUDA), allocated on first use.

CPU storage a Buffer allocated itself goes back to a bounded pool when the Buffer dies and nothing else holds the
array (no NumPy view, no jit table, no kernel in flight), and a later Buffer of the same dtype and size takes it.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from lazyarr.dtypes import DType
from lazyarr.helpers import flag
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


# storage smaller than this is left to malloc (cheap, and no page faults at that size)
POOL_MIN_BYTES = 1 << 16


class HostPool:
    """Host arrays of dead Buffers, by (NumPy dtype, size), at most `LAZYARR_POOL_BYTES` in all (oldest dropped first).

    Only arrays a Buffer allocated itself and that nothing but that Buffer references come here (see
    `Buffer.__del__`), so handing one to a new Buffer can never alias live data.
    """

    def __init__(self) -> None:
        self.free: dict[tuple[str, int], dict[int, np.ndarray]] = {}  # key -> arrays by id
        self.order: OrderedDict[int, tuple[str, int]] = OrderedDict()  # every pooled array's id, oldest first
        self.nbytes = 0
        self.reused = 0
        # a Buffer can die on any thread (a cycle collected while a launch worker runs Python code), or inside put
        # itself (a collection its allocation triggers): reentrant
        self.lock = threading.RLock()

    def take(self, np_name: str, size: int) -> np.ndarray | None:
        if not self.free.get((np_name, size)):
            return None
        with self.lock:
            arrays = self.free.get((np_name, size))
            if not arrays:
                return None
            ident, a = arrays.popitem()
            del self.order[ident]
            self.nbytes -= a.nbytes
            self.reused += 1
            return a

    def put(self, key: tuple[str, int], a: np.ndarray) -> None:
        cap = flag("POOL_BYTES")
        if a.nbytes > cap:
            return
        with self.lock:
            while self.nbytes + a.nbytes > cap:
                ident, old_key = self.order.popitem(last=False)
                self.nbytes -= self.free[old_key].pop(ident).nbytes
            self.free.setdefault(key, {})[id(a)] = a
            self.order[id(a)] = key
            self.nbytes += a.nbytes

    def clear(self) -> None:
        with self.lock:
            self.free.clear()
            self.order.clear()
            self.nbytes = 0


host_pool = HostPool()


class Buffer:
    """`size` elements of `dtype` on `device`. Identity is storage identity: two Buffers never share memory."""

    __slots__ = ("size", "dtype", "device", "_array", "_address", "version", "_pooled", "__weakref__")

    def __init__(self, size: int, dtype: DType, device: str = "CPU", array: Any = None) -> None:
        self.size, self.dtype, self.device = size, dtype, device
        self._array = array
        self._address = 0
        self._pooled = False  # the storage was allocated here (not the caller's), so it may go to the pool
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
                nbytes = self.size * self.dtype.itemsize
                a = host_pool.take(self.dtype.np_name, self.size) if nbytes >= POOL_MIN_BYTES else None
                self._array = np.empty(self.size, dtype=self.dtype.np_name) if a is None else a
                self._pooled = nbytes >= POOL_MIN_BYTES
            else:
                self._array = runtime_cuda.backend().empty(self.size, self.dtype.np_name)
        return self._array

    def __del__(self) -> None:
        # the storage is free when this slot holds the only reference (2 = the slot + getrefcount's argument): a
        # NumPy view, a jit capture's array list or a launch still running holds another, and keeps it out of the pool
        if self._pooled and sys.getrefcount(self._array) == 2:
            try:
                host_pool.put((self.dtype.np_name, self.size), self._array)
            except Exception:  # noqa: S110  (interpreter shutdown: the pool or flags may be gone; the array just dies)
                pass

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
            a = self.array
            try:  # a third of `a.ctypes.data`'s cost: this runs for every new buffer an eager op writes
                self._address = ctypes.addressof(ctypes.c_char.from_buffer(a))
            except (TypeError, ValueError):  # read-only storage, or none (size 0)
                self._address = int(a.ctypes.data)
        return self._address

    @staticmethod
    def from_numpy(a: np.ndarray, dtype: DType, device: str = "CPU") -> Buffer:
        """A buffer on `device` holding a C-order copy of `a` (on CPU a flat view is reused when `a` is already
        contiguous and owned)."""
        flat = np.ascontiguousarray(a, dtype=dtype.np_name).reshape(-1)
        if device == "CPU":
            return Buffer(flat.size, dtype, "CPU", flat)
        return Buffer(flat.size, dtype, device, runtime_cuda.backend().from_host(flat))
