"""`a[idx] = value` against NumPy: basic indices write through a view, integer arrays and boolean masks scatter;
values are cast and broadcast like NumPy; bad indices raise IndexError before anything is written."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

import lazyarr
from lazyarr import Tensor
from tests.helpers import assert_matches, kernel_count

rng = np.random.default_rng(7)
DATA = {
    "float32": rng.standard_normal((4, 5)).astype(np.float32),
    "int32": rng.integers(-50, 50, (4, 5)).astype(np.int32),
    "bool": rng.integers(0, 2, (4, 5)).astype(bool),
}

BASIC = {
    "int": 2,
    "negative_int": -1,
    "int_pair": (1, -2),
    "slice_step": (slice(None, None, 2), slice(1, None, 2)),
    "negative_step": (slice(None, None, -1), slice(3, 0, -2)),
    "ellipsis_col": (Ellipsis, 0),
    "newaxis": (None, slice(1, 3)),
    "bool_scalar": True,
}
ADVANCED = {
    "int_list": [0, 2, -1],
    "repeated_rows": [1, 1, 3],
    "numpy_ints": np.array([[0, 3], [2, 1]]),
    "column_list": (slice(None), [4, 0]),
    "pairs": ([0, 1, 3], [4, 2, 0]),
    "mixed": (slice(1, None), [0, -1]),
    "mask": "mask",
    "row_mask": np.array([True, False, True, True]),
}


def _index(name: str, a: np.ndarray) -> Any:
    idx = {**BASIC, **ADVANCED}[name]
    return (a > a.flat[7]) if isinstance(idx, str) else idx


def _value_for(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    return (np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) % 7 - 3).astype(dtype)


@pytest.mark.parametrize("realized", [True, False], ids=["realised", "lazy"])
@pytest.mark.parametrize("dtype", list(DATA))
@pytest.mark.parametrize("name", list(BASIC) + list(ADVANCED))
def test_setitem_matches_numpy(name: str, dtype: str, realized: bool) -> None:
    a = DATA[dtype].copy()
    idx = _index(name, a)
    x = Tensor(a.copy())
    x = x.realize() if realized else x.clone()
    region = a[idx].shape
    value = _value_for(region, a.dtype)
    x[idx] = Tensor(value)
    a[idx] = value
    assert_matches(x, a)
    x[idx] = value[..., :1] if value.ndim else value  # broadcast along the last axis
    a[idx] = value[..., :1] if value.ndim else value
    assert_matches(x, a)


def test_scalar_and_list_values_are_cast_like_numpy() -> None:
    a = DATA["int32"].copy()
    x = Tensor(a.copy())
    x[0] = 2.9  # truncated toward zero
    x[1, :3] = [1.5, -2.5, 7]
    x[2] = Tensor(np.full(5, -3.7, np.float32))
    x[3, 1] = True
    for idx, v in [(0, 2.9), ((1, slice(None, 3)), [1.5, -2.5, 7]), (2, np.full(5, -3.7, np.float32)), ((3, 1), True)]:
        a[idx] = v
    assert_matches(x, a)
    b = Tensor(DATA["bool"].copy())
    b[0] = 2
    b[1] = Tensor(np.array([0.0, 0.5, 0, 0, 1], np.float32))
    ref = DATA["bool"].copy()
    ref[0] = 2
    ref[1] = np.array([0.0, 0.5, 0, 0, 1], np.float32)
    assert_matches(b, ref)


def test_bad_values_raise_and_write_nothing() -> None:
    x = Tensor(np.zeros(4, np.int8)).realize()
    with pytest.raises(OverflowError):
        x[0] = 1000
    with pytest.raises(ValueError):
        x[1] = float("nan")
    with pytest.raises(ValueError, match="broadcast"):
        x[1:3] = [1, 2, 3]
    with pytest.raises(ValueError, match="broadcast"):
        x[[0, 1]] = np.ones(3, np.int8)
    assert_matches(x, np.zeros(4, np.int8))


@pytest.mark.parametrize("idx", [4, -5, (0, 5), [0, 4], [-5], (slice(None), [5]), np.array([True, False])])
def test_out_of_range_raises_index_error_before_any_write(idx: Any) -> None:
    a = DATA["float32"].copy()
    x = Tensor(a.copy()).realize()
    x[0] = 1.0  # a pending write stays pending and correct
    with kernel_count(0), pytest.raises(IndexError):
        x[idx] = 5.0
    a[0] = 1.0
    assert_matches(x, a)


def test_scatter_repeated_index_last_write_wins() -> None:
    x = Tensor(np.zeros(5, np.float32)).realize()
    x[[1, 3, 1, 1]] = Tensor(np.array([10, 20, 30, 40], np.float32))
    ref = np.zeros(5, np.float32)
    ref[[1, 3, 1, 1]] = [10, 20, 30, 40]
    assert_matches(x, ref)


def test_scatter_is_one_kernel_over_the_index() -> None:
    n = 1 << 12
    x = Tensor(np.zeros(n, np.float32)).realize()
    idx = np.arange(0, n, 3)
    v = Tensor(np.ones(idx.size, np.float32)).realize()
    x[idx]  # index tensors are checked eagerly; warm the index path
    with kernel_count(1):
        x[idx] = v
        x.realize()
    ref = np.zeros(n, np.float32)
    ref[idx] = 1
    assert_matches(x, ref)


def test_scatter_through_a_view_and_into_lazy_arrays() -> None:
    a = DATA["float32"].copy()
    x = Tensor(a.copy()).realize()
    v = x[:, ::2]
    v[[0, 2]] = -1.0
    a[:, ::2][[0, 2]] = -1.0
    assert_matches(x, a)
    y = Tensor(a.copy()) * 2
    y[y > 0] = 0.0
    ref = a * 2
    ref[ref > 0] = 0
    assert_matches(y, ref)


def test_setitem_loop_three_times() -> None:
    a = DATA["int32"].copy()
    x = Tensor(a.copy())
    for k in range(3):
        x[k, ::2] += k + 1
        x[[k + 1]] = x[[k]] * 2
        a[k, ::2] += k + 1
        a[[k + 1]] = a[[k]] * 2
    assert_matches(x, a)


@pytest.mark.parametrize("idx", [([1, 0], slice(None), [0, 3]), ([[0], [1]], [2, 0], slice(1, 3))])
def test_scatter_with_broadcast_or_separated_indices(idx: Any) -> None:
    # the flattened index ends in a broadcast: it is not a view of the target (it used to realise the target instead)
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = Tensor(a.copy())
    x[idx] = -1.0
    a[idx] = -1.0
    assert_matches(x, a)



def _write_after_int_index(a: Any) -> Any:
    v = a[[0, 1]]
    v[0] = -1
    v[[1], 2] = -2
    return v


def _write_after_mask(a: Any) -> Any:
    v = a[a > 5]
    v[0] = -1
    return v


def _write_after_take(a: Any) -> Any:
    v = np.take(a, [2, 0], axis=0)
    v[:, 1] += 10
    return v


def _write_through_a_view_of_the_copy(a: Any) -> Any:
    v = a[[2, 1]]
    w = v.T[1:]
    w[0] = -3
    return v


def _lazy_value_read_before_the_write(a: Any) -> Any:
    v = a[[0, 1]]
    total = v.sum(axis=0)
    v[...] = 4
    return total


COPY_WRITES = {
    "int_index": _write_after_int_index,
    "mask": _write_after_mask,
    "take": _write_after_take,
    "view_of_copy": _write_through_a_view_of_the_copy,
    "read_before_write": _lazy_value_read_before_the_write,
}


@pytest.mark.parametrize("realized", [True, False], ids=["realised", "lazy"])
@pytest.mark.parametrize("name", list(COPY_WRITES))
def test_writes_into_a_fancy_indexing_copy_change_only_that_copy(name: str, realized: bool) -> None:
    # fancy indexing and np.take return copies, whose value is a GATHER over the source; a write into one used to be
    # taken for a scatter into the source and crashed (AssertionError)
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = Tensor(a.copy())
    x = x.realize() if realized else x * 1
    expected = COPY_WRITES[name](a)
    got = COPY_WRITES[name](x)
    assert_matches(got, expected)
    assert_matches(x, a)


def test_writes_from_two_threads_into_disjoint_rows() -> None:
    # each thread writes its own row (no data race, as in NumPy): every write lands, none raises
    n = 200
    src = Tensor(np.arange(2 * n, dtype=np.float64).reshape(2, n))
    out = Tensor(np.zeros((2, n)))
    errors: list[BaseException] = []

    def fill(row: int) -> None:
        try:
            for i in range(n):
                out[row, i] = src[row, i] * 2
                if i % 50 == 0:
                    out.realize()
        except BaseException as e:  # reported below, in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=fill, args=(row,)) for row in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    np.testing.assert_array_equal(out.numpy(), np.arange(2 * n, dtype=np.float64).reshape(2, n) * 2)


@pytest.mark.parametrize("value", [0, np.nan, 2.5, np.float32(-1), "1.5", None])
def test_mask_of_the_whole_array_with_one_value_is_a_select(value: Any) -> None:
    # a[a > 5] = value reads no mask values now: it is lazy, and a jitted function may do it
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t, ref = Tensor(a.copy()), a.copy()
    view, ref_view = t.T, ref.T
    t[t > 5] = value
    ref[ref > 5] = value
    view[view < 2] = value
    ref_view[ref_view < 2] = value
    assert_matches(t, ref)
    assert_matches(view, ref_view)
    with pytest.raises(ValueError, match="read-only"):
        t[0].expand(3, 4)[Tensor(np.ones((3, 4), bool))] = 1.0

    @lazyarr.jit
    def zero_large(x: Tensor) -> Tensor:
        x[x > 5] = 0
        return x * 2

    for i in range(4):
        x, want = Tensor(a + i), a + i
        want[want > 5] = 0
        assert_matches(zero_large(x), want * 2)
        assert_matches(x, want)
