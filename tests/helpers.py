"""Shared test helpers: "realising this makes exactly N kernels" and "this op matches NumPy"."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import lazyarr
from lazyarr import Tensor

FLOAT_TOL = {"float16": (1e-2, 1e-2), "float32": (1e-5, 1e-6), "float64": (1e-12, 1e-12)}


@contextlib.contextmanager
def kernel_count(expected: int | None = None) -> Iterator[dict[str, int]]:
    """Counts kernels launched inside the block; asserts the count equals `expected` when given."""
    before = lazyarr.stats().kernels_launched
    box = {"kernels": 0}
    yield box
    box["kernels"] = lazyarr.stats().kernels_launched - before
    if expected is not None:
        assert box["kernels"] == expected, f"expected {expected} kernels, launched {box['kernels']}"


def assert_matches(out: Any, ref: Any, rtol: float | None = None, atol: float | None = None, check_dtype: bool = True) -> None:
    """`out` (a Tensor or array) equals NumPy's `ref`: same shape, dtype (when asked) and values (NaNs match)."""
    got = out.numpy() if isinstance(out, Tensor) else np.asarray(out)
    ref = np.asarray(ref)
    assert got.shape == ref.shape, f"shape {got.shape} != numpy {ref.shape}"
    if check_dtype:
        assert got.dtype == ref.dtype, f"dtype {got.dtype} != numpy {ref.dtype}"
    if ref.dtype.kind == "f" or got.dtype.kind == "f":
        key = np.result_type(got.dtype, ref.dtype).name if got.dtype.kind == "f" else "float64"
        r, a = FLOAT_TOL.get(key, (1e-6, 1e-6))
        np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=rtol or r, atol=atol or a,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(got, ref)


def check_op(fn: Callable[..., Any], *arrays: np.ndarray, ref: Callable[..., Any] | None = None, **kw: Any) -> None:
    """Run `fn` on Tensors made from `arrays` and on the arrays themselves (or `ref`), and compare."""
    expected = (ref or fn)(*arrays)
    assert_matches(fn(*[Tensor(a) for a in arrays]), expected, **kw)
