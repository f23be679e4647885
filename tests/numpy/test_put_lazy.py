"""np.put and np.put_along_axis with host indices are lazy scatters: they match NumPy (repeats, negative indices,
modes, value cycling and casting, views) and, unlike the NumPy fallback they replaced, replay under @lazyarr.jit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor

_PUTS: dict[str, Callable[[Any], None]] = {
    "plain": lambda a: np.put(a, [0, 5], [7, 8]),
    "repeated": lambda a: np.put(a, [1, 1, 4], [1, 2, 3]),
    "negative": lambda a: np.put(a, np.array([-1, -6]), 9),
    "cycled": lambda a: np.put(a, [0, 1, 2, 3, 4], [1, 2]),
    "wrap": lambda a: np.put(a, [7, -8], [5, 6], mode="wrap"),
    "clip": lambda a: np.put(a, [70, -8], [5, 6], mode="clip"),
    "cast": lambda a: np.put(a, [2], 2.75),
    "view": lambda a: np.put(a.T, [0, 1, 2], [4, 5, 6]),
    "flat": lambda a: a.flat.__setitem__([1, 4], [3, 3]),
    "along-0": lambda a: np.put_along_axis(a, np.array([[1, 0, 1]]), 9, 0),
    "along-1": lambda a: np.put_along_axis(a, np.array([[2], [-1]]), np.array([[5], [6]]), 1),
    "along-view": lambda a: np.put_along_axis(a[:, ::-1], np.array([[0, 1]]).T, 4, 1),
}


@pytest.mark.parametrize("name", list(_PUTS), ids=list(_PUTS))
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_put_matches_numpy(name: str, dtype: Any) -> None:
    base = np.arange(6, dtype=dtype).reshape(2, 3)
    want = base.copy()
    _PUTS[name](want)
    got = Tensor(base.copy())
    _PUTS[name](got)
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("name", list(_PUTS), ids=list(_PUTS))
def test_put_in_jit_replays(name: str) -> None:
    def body(t: Any, x: Any) -> Any:
        t = t * x
        _PUTS[name](t)
        return t + 0

    f = lazyarr.jit(body)
    for k in range(4):
        base = np.arange(6.0).reshape(2, 3) + k
        x = np.full((2, 3), 1.5 + k)
        np.testing.assert_array_equal(f(Tensor(base), Tensor(x)).numpy(), body(base, x))


@pytest.mark.parametrize("call", [lambda a: np.put(a, [6], 1), lambda a: np.put(a, [-7], 1),
                                  lambda a: np.put_along_axis(a, np.array([[3]]), 1, 1)])
def test_put_out_of_range_raises_like_numpy(call: Callable[[Any], None]) -> None:
    with pytest.raises(IndexError) as want:
        call(np.zeros((2, 3)))
    t = Tensor(np.zeros((2, 3)))
    with pytest.raises(IndexError, match=str(want.value)):
        call(t)
    np.testing.assert_array_equal(t.numpy(), np.zeros((2, 3)))  # nothing written
