"""Array API statistical, manipulation, searching, set, sorting, utility, linear algebra and indexing functions
with the standard's names and keywords, built on lazyarr's NumPy implementations (lazy where the result shape does
not depend on the data; sort, unique, nonzero and searchsorted realise and run in NumPy, counted as fallbacks)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from lazyarr.frontend.numpy_api import numpy_fallback
from lazyarr.frontend.tensor import Tensor
from lazyarr.helpers import normalize_axis


# ---- statistical ----
def sum(x: Tensor, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return np.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def prod(x: Tensor, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    return np.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def max(x: Tensor, /, *, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return np.max(x, axis=axis, keepdims=keepdims)


def min(x: Tensor, /, *, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return np.min(x, axis=axis, keepdims=keepdims)


def mean(x: Tensor, /, *, axis: Any = None, keepdims: bool = False) -> Tensor:
    return np.mean(x, axis=axis, keepdims=keepdims)


def var(x: Tensor, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False) -> Tensor:
    return np.var(x, axis=axis, ddof=correction, keepdims=keepdims)


def std(x: Tensor, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False) -> Tensor:
    return np.std(x, axis=axis, ddof=correction, keepdims=keepdims)


def cumulative_sum(x: Tensor, /, *, axis: int | None = None, dtype: Any = None,
                   include_initial: bool = False) -> Tensor:
    return np.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial)


# ---- utility ----
def all(x: Tensor, /, *, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return np.all(x, axis=axis, keepdims=keepdims)


def any(x: Tensor, /, *, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return np.any(x, axis=axis, keepdims=keepdims)


# ---- manipulation ----
def broadcast_arrays(*arrays: Tensor) -> list[Tensor]:
    return list(np.broadcast_arrays(*arrays))


def broadcast_to(x: Tensor, /, shape: tuple[int, ...]) -> Tensor:
    return np.broadcast_to(x, shape)


def concat(arrays: Sequence[Tensor], /, *, axis: int | None = 0) -> Tensor:
    return np.concatenate(list(arrays), axis=axis)


def expand_dims(x: Tensor, /, *, axis: int = 0) -> Tensor:
    return np.expand_dims(x, axis)


def flip(x: Tensor, /, *, axis: Any = None) -> Tensor:
    return np.flip(x, axis)


def moveaxis(x: Tensor, source: Any, destination: Any, /) -> Tensor:
    return np.moveaxis(x, source, destination)


def permute_dims(x: Tensor, /, axes: tuple[int, ...]) -> Tensor:
    return np.transpose(x, axes)


def repeat(x: Tensor, repeats: Any, /, *, axis: int | None = None) -> Tensor:
    return np.repeat(x, repeats, axis)


def reshape(x: Tensor, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Tensor:
    return np.reshape(x, shape, copy=copy)


def roll(x: Tensor, /, shift: Any, *, axis: Any = None) -> Tensor:
    return np.roll(x, shift, axis)


def squeeze(x: Tensor, /, axis: Any) -> Tensor:
    return np.squeeze(x, axis)


def stack(arrays: Sequence[Tensor], /, *, axis: int = 0) -> Tensor:
    return np.stack(list(arrays), axis)


def tile(x: Tensor, repetitions: tuple[int, ...], /) -> Tensor:
    return np.tile(x, repetitions)


def unstack(x: Tensor, /, *, axis: int = 0) -> tuple[Tensor, ...]:
    return np.unstack(x, axis=axis)


# ---- searching ----
def argmax(x: Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> Tensor:
    return np.argmax(x, axis, keepdims=keepdims)


def argmin(x: Tensor, /, *, axis: int | None = None, keepdims: bool = False) -> Tensor:
    return np.argmin(x, axis, keepdims=keepdims)


def nonzero(x: Tensor, /) -> tuple[Tensor, ...]:
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays")
    return np.nonzero(x)


def searchsorted(x1: Tensor, x2: Tensor, /, *, side: str = "left", sorter: Tensor | None = None) -> Tensor:
    return np.searchsorted(x1, x2, side=side, sorter=sorter)


def where(condition: Tensor, x1: Any, x2: Any, /) -> Tensor:
    return np.where(condition, x1, x2)


# ---- set ----
def unique_all(x: Tensor, /) -> Any:
    return np.unique_all(x)


def unique_counts(x: Tensor, /) -> Any:
    return np.unique_counts(x)


def unique_inverse(x: Tensor, /) -> Any:
    return np.unique_inverse(x)


def unique_values(x: Tensor, /) -> Tensor:
    return np.unique_values(x)


# ---- sorting ----
def _argsort_np(a: np.ndarray, axis: int, descending: bool, stable: bool) -> np.ndarray:
    kind = "stable" if stable else None
    if not descending:
        return np.argsort(a, axis=axis, kind=kind)
    # descending and stable: sort the reversed array ascending, then map the positions back
    n = a.shape[axis]
    idx = np.flip(np.argsort(np.flip(a, axis), axis=axis, kind=kind), axis)
    return n - 1 - idx


def argsort(x: Tensor, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Tensor:
    ax = normalize_axis(axis, x.ndim)
    return numpy_fallback(_argsort_np, (x, ax, descending, stable), {}, "argsort")


def _sort_np(a: np.ndarray, axis: int, descending: bool, stable: bool) -> np.ndarray:
    out = np.sort(a, axis=axis, kind="stable" if stable else None)
    return np.flip(out, axis) if descending else out


def sort(x: Tensor, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Tensor:
    ax = normalize_axis(axis, x.ndim)
    return numpy_fallback(_sort_np, (x, ax, descending, stable), {}, "sort")


# ---- linear algebra and indexing ----
def matmul(x1: Tensor, x2: Tensor, /) -> Tensor:
    return np.matmul(x1, x2)


def matrix_transpose(x: Tensor, /) -> Tensor:
    return np.matrix_transpose(x)


def tensordot(x1: Tensor, x2: Tensor, /, *, axes: Any = 2) -> Tensor:
    return np.tensordot(x1, x2, axes)


def vecdot(x1: Tensor, x2: Tensor, /, *, axis: int = -1) -> Tensor:
    return np.vecdot(x1, x2, axis=axis)


def take(x: Tensor, indices: Tensor, /, *, axis: int | None = None) -> Tensor:
    if axis is None and x.ndim != 1:
        raise ValueError("take: axis is required for arrays of more than one dimension")
    return np.take(x, indices, axis=axis)


