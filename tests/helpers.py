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


def assert_matches(
    out: Any, ref: Any, rtol: float | None = None, atol: float | None = None, check_dtype: bool = True
) -> None:
    """`out` (a Tensor or array) equals NumPy's `ref`: same shape, dtype (when asked) and values (NaNs match)."""
    got = out.numpy() if isinstance(out, Tensor) else np.asarray(out)
    ref = np.asarray(ref)
    assert got.shape == ref.shape, f"shape {got.shape} != numpy {ref.shape}"
    if check_dtype:
        assert got.dtype == ref.dtype, f"dtype {got.dtype} != numpy {ref.dtype}"
    if ref.dtype.kind == "f" or got.dtype.kind == "f":
        key = np.result_type(got.dtype, ref.dtype).name if got.dtype.kind == "f" else "float64"
        r, a = FLOAT_TOL.get(key, (1e-6, 1e-6))
        np.testing.assert_allclose(
            got.astype(np.float64), ref.astype(np.float64), rtol=rtol or r, atol=atol or a, equal_nan=True
        )
    else:
        np.testing.assert_array_equal(got, ref)


def check_op(fn: Callable[..., Any], *arrays: np.ndarray, ref: Callable[..., Any] | None = None, **kw: Any) -> None:
    """Run `fn` on Tensors made from `arrays` and on the arrays themselves (or `ref`), and compare."""
    expected = (ref or fn)(*arrays)
    assert_matches(fn(*[Tensor(a) for a in arrays]), expected, **kw)


# ---- op-test data: dtypes, shapes, value pools and non-contiguous layouts ----

DTYPES = ("float32", "float64", "int32", "int64", "bool")
SHAPES = ((), (0,), (1,), (7,), (3, 5), (2, 3, 4))
_FLOAT_SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1.0, -1.0, 3.0]


def pool(dtype: str, n: int = 24, seed: int = 0, special: bool = True, low: float = -9, high: float = 9) -> np.ndarray:
    """`n` test values of `dtype`: special values first (NaN, infinities, signed zeros, halves) when `special`, then
    seeded random values in [low, high] (bools alternate)."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(n) < 0.5
    if np.dtype(dtype).kind == "f":
        rand = rng.uniform(low, high, n)
        vals = np.array(_FLOAT_SPECIALS + list(rand))[:n] if special else rand
        return vals.astype(dtype)
    ints = rng.integers(int(low), int(high) + 1, n)
    if special:
        ints[: min(n, 4)] = [0, 1, -1, 2][: min(n, 4)] if np.dtype(dtype).kind == "i" else [0, 1, 2, 3][: min(n, 4)]
    return ints.astype(dtype)


def sample(dtype: str, shape: tuple[int, ...], seed: int = 0, **kw: Any) -> np.ndarray:
    """A C-ordered array of `shape` from `pool` (the same values for every shape of one seed)."""
    size = int(np.prod(shape))
    return pool(dtype, max(size, 1), seed, **kw)[:size].reshape(shape)


# non-contiguous layouts: a base shape and the view taken of it (the same expression works on NumPy and lazyarr)
LAYOUTS: dict[str, tuple[tuple[int, ...], Callable[[Any], Any]]] = {
    "transposed": ((5, 3), lambda a: a.T),
    "stepped": ((3, 10), lambda a: a[:, 1::3]),
    "negative": ((3, 5), lambda a: a[::-1, ::-1]),
    "neg_stepped": ((11,), lambda a: a[::-2]),
}


def layout_inputs(dtype: str, seed: int = 0, **kw: Any) -> Iterator[tuple[str, np.ndarray, Tensor]]:
    """(name, NumPy view, lazyarr view of the same values) for every contiguous shape and non-contiguous layout."""
    for shape in SHAPES:
        a = sample(dtype, shape, seed, **kw)
        yield f"shape{shape}", a, Tensor(a)
    for name, (base_shape, fn) in LAYOUTS.items():
        base = sample(dtype, base_shape, seed, **kw)
        yield name, fn(base), fn(Tensor(base))


def assert_close(
    out: Any, ref: Any, dtype: str | None = None, rtol: float | None = None, atol: float | None = None, msg: str = ""
) -> None:
    """`out` matches NumPy's `ref` after `ref` is cast to `dtype` (lazyarr's documented dtype where it differs from
    NumPy's; default: `ref`'s own); the result dtype must be exactly `dtype`."""
    ref = np.asarray(ref)
    if dtype is not None:
        ref = ref.astype(dtype)
    try:
        assert_matches(out, ref, rtol=rtol, atol=atol)
    except AssertionError as e:
        raise AssertionError(f"{msg}\n{e}") from None


def option_prices(s: Tensor, k: Tensor, t: Tensor) -> tuple[Tensor, Tensor]:
    """Black-Scholes call and put: a log, an exp, two erfs, a sqrt and divisions in one loop (split into stages)."""
    sq = t.sqrt() * 0.3
    d1 = ((s / k).log() + 0.065 * t) / sq
    disc = k * (t * -0.02).exp()
    c1, c2 = 0.5 + 0.5 * (d1 * 0.7071067811865476).erf(), 0.5 + 0.5 * ((d1 - sq) * 0.7071067811865476).erf()
    return s * c1 - disc * c2, disc * (1 - c2) - s * (1 - c1)
