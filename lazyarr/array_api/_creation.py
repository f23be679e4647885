"""Array API creation functions. Python floats default to float32 and ints to int64 (lazyarr's defaults, reported
by `__array_namespace_info__().default_dtypes()`); `device=` accepts 'CPU'/'CUDA'."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from lazyarr import dtypes
from lazyarr.frontend.np_ufuncs import iota
from lazyarr.frontend.numpy_api import is_tensor
from lazyarr.frontend.tensor import Tensor
from lazyarr.graph.uop import UOp


def _dt(dtype: Any) -> Any:
    return None if dtype is None else dtypes.to_dtype(dtype)


def _shape(shape: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in shape) if isinstance(shape, (tuple, list)) else (int(shape),)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None) -> Tensor:
    """A Tensor from a Tensor, NumPy array, DLPack exporter, buffer, Python scalar or nested sequence.

    `copy=True` always copies; `copy=False` never does (ValueError when it would have to); `copy=None` copies only
    when needed. Non-Tensor inputs are always copied into lazyarr storage, so `copy=False` is refused for them.
    """
    dt = _dt(dtype)
    if is_tensor(obj):
        out = obj if device is None else obj.to_device(device)
        if dt is not None and dt is not out.dtype:
            if copy is False:
                raise ValueError("asarray: a dtype change needs a copy, but copy=False")
            return out.cast(dt)
        return out.clone() if copy else out
    if copy is False:
        raise ValueError("asarray: lazyarr copies data from outside into its own storage; copy=False is impossible")
    if not isinstance(obj, (np.ndarray, list, tuple, bool, int, float, np.generic)) and hasattr(obj, "__dlpack__"):
        obj = np.from_dlpack(obj)
    if isinstance(obj, (bytes, bytearray, memoryview)):
        obj = np.frombuffer(obj, dtype=np.uint8 if dt is None else dt.np_name)
    return Tensor(obj, dtype=dt, device=device)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Tensor:
    """A Tensor from any DLPack exporter; the values are copied into lazyarr storage (`copy=False` raises
    BufferError: lazyarr cannot adopt foreign memory)."""
    if copy is False:
        raise BufferError("lazyarr copies DLPack data into its own storage; copy=False is not possible")
    if is_tensor(x):
        return x.clone() if copy else x
    return Tensor(np.from_dlpack(x), device=device)


def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor.arange(start, stop, step, dtype=dtype, device=device)


def linspace(start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
             endpoint: bool = True) -> Tensor:
    return Tensor.linspace(start, stop, num, endpoint=endpoint, dtype=dtype, device=device)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None) -> Tensor:
    n_rows = operator.index(n_rows)  # TypeError for a float, as np.eye
    n_cols = n_rows if n_cols is None else operator.index(n_cols)
    k = operator.index(k)
    if n_rows < 0 or n_cols < 0:
        raise ValueError("negative dimensions are not allowed")
    probe = Tensor(UOp.const(0, dtypes.int64), device=device)
    i, j = iota(n_rows, probe).reshape(n_rows, 1), iota(n_cols, probe).reshape(1, n_cols)
    return (j - i == k).cast(_dt(dtype) or dtypes.default_float)


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor.empty(_shape(shape), dtype=dtype, device=device)


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor.full(_shape(shape), 0, _dt(dtype) or dtypes.default_float, device)


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor.full(_shape(shape), 1, _dt(dtype) or dtypes.default_float, device)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor.full(_shape(shape), fill_value, _dt(dtype) or dtypes.scalar_dtype(fill_value), device)


def empty_like(x: Tensor, /, *, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor.empty(x.shape, dtype=_dt(dtype) or x.dtype, device=device or x.device)


def zeros_like(x: Tensor, /, *, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor.full(x.shape, 0, _dt(dtype) or x.dtype, device or x.device)


def ones_like(x: Tensor, /, *, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor.full(x.shape, 1, _dt(dtype) or x.dtype, device or x.device)


def full_like(x: Tensor, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor.full(x.shape, fill_value, _dt(dtype) or x.dtype, device or x.device)


def tril(x: Tensor, /, *, k: int = 0) -> Tensor:
    return np.tril(x, k)


def triu(x: Tensor, /, *, k: int = 0) -> Tensor:
    return np.triu(x, k)


def meshgrid(*arrays: Tensor, indexing: str = "xy") -> list[Tensor]:
    return list(np.meshgrid(*arrays, indexing=indexing))


__all__: Sequence[str] = ["asarray", "from_dlpack", "arange", "linspace", "eye", "empty", "zeros", "ones", "full",
                          "empty_like", "zeros_like", "ones_like", "full_like", "tril", "triu", "meshgrid"]
