"""Shared inputs and comparisons for the NumPy interop tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from lazyarr import Tensor
from lazyarr.frontend.inplace import is_realized as _is_realized

rng = np.random.default_rng(1234)

# float inputs with the special values every elementwise op must get right
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-30, -1e-30, 1e30, -1e30, 0.5, -0.5, 1.0, -1.0, 2.5, -3.5,
                    700.0, -700.0, 1e-5, 3.0, 0.999])


def floats(dtype: Any, shape: tuple[int, ...] = (3, 4)) -> np.ndarray:
    return rng.uniform(-3, 3, shape).astype(dtype)


def ints(dtype: Any, shape: tuple[int, ...] = (3, 4), lo: int = -9, hi: int = 10) -> np.ndarray:
    info = np.iinfo(dtype)
    return rng.integers(max(lo, info.min), min(hi, info.max), shape).astype(dtype)


def sample(dtype: Any, shape: tuple[int, ...] = (3, 4)) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return floats(dt, shape)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    return ints(dt, shape, lo=0 if dt.kind == "u" else -9)


def is_lazy(t: Any) -> bool:
    """A Tensor whose value is still a graph (nothing ran yet)."""
    return isinstance(t, Tensor) and not _is_realized(t.uop)


def same(got: Any, ref: Any, rtol: float | None = None, atol: float | None = None, check_dtype: bool = True) -> None:
    """`got` (a Tensor, array or scalar) equals NumPy's `ref`: shape, dtype and values (NaNs and signs of inf)."""
    g = got.numpy() if isinstance(got, Tensor) else np.asarray(got)
    r = np.asarray(ref)
    assert g.shape == r.shape, f"shape {g.shape} != numpy {r.shape}"
    if check_dtype:
        assert g.dtype == r.dtype, f"dtype {g.dtype} != numpy {r.dtype}"
    if r.dtype.kind == "f" or g.dtype.kind == "f":
        kind = np.result_type(g.dtype, r.dtype) if g.dtype.kind == "f" else r.dtype
        default = {2: (2e-3, 1e-3), 4: (2e-6, 1e-6), 8: (1e-12, 1e-13)}[np.dtype(kind).itemsize]
        np.testing.assert_allclose(g.astype(np.float64), r.astype(np.float64), rtol=rtol or default[0],
                                   atol=atol if atol is not None else default[1], equal_nan=True)
    else:
        np.testing.assert_array_equal(g, r)
