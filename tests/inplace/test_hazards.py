"""Read/write hazards give the eager answer: a write whose value reads the storage it overwrites elsewhere, reads of
a version that a later write replaces (inside one schedule and across schedules), and writes that read each other."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from lazyarr import Tensor
from tests.helpers import assert_matches, kernel_count

rng = np.random.default_rng(11)
SQ = rng.standard_normal((5, 5)).astype(np.float32)
CUBE = rng.standard_normal((2, 3, 3)).astype(np.float32)


def _add_transpose(t):  # a += a.T
    t += t.T


def _shift_right(t):  # a[1:] = a[:-1]
    t[1:] = t[:-1]


def _shift_left(t):  # a[:-1] = a[1:]
    t[:-1] = t[1:]


def _corner_transpose(t):  # t[:3, :3] = t[:3, :3].T
    t[:3, :3] = t[:3, :3].T


def _reversed(t):  # a[::-1] = a (every element moves)
    t[::-1] = t * 1 if isinstance(t, Tensor) else t.copy()


def _scatter_from_gather(t):  # a[[0, 2]] = a[[2, 0]]
    t[[0, 2]] = t[[2, 0]]


def _row_sum_into_row(t):  # a[0] = a.sum(0)
    t[0] = t.sum(0)


CASES: dict[str, Callable] = {
    "a+=a.T": _add_transpose, "a[1:]=a[:-1]": _shift_right, "a[:-1]=a[1:]": _shift_left,
    "t[:3,:3]=t[:3,:3].T": _corner_transpose, "a[::-1]=a": _reversed, "a[[0,2]]=a[[2,0]]": _scatter_from_gather,
    "a[0]=a.sum(0)": _row_sum_into_row,
}


@pytest.mark.parametrize("realized", [True, False], ids=["realised", "lazy"])
@pytest.mark.parametrize("name", list(CASES))
def test_overlapping_write_gives_eager_answer(name: str, realized: bool) -> None:
    fn = CASES[name]
    a = SQ.copy()
    x = Tensor(a.copy())
    x = x.realize() if realized else x * 1
    for _ in range(3):
        fn(x)
        fn(a)
    assert_matches(x, a, rtol=1e-5)


def test_assign_of_a_permuted_self() -> None:
    x = Tensor(CUBE.copy()).realize()
    x.assign(x.permute(0, 2, 1) * 1.0)
    assert_matches(x, CUBE.transpose(0, 2, 1) * 1.0)


def test_same_element_read_is_one_kernel() -> None:
    x = Tensor(SQ.copy()).realize()
    with kernel_count(1):
        x.assign(x * 2 + x.exp())
        x.realize()
    with kernel_count(1):  # reads of a disjoint region are safe too
        x[:2] = x[3:] + 1
        x.realize()
    ref = SQ * 2 + np.exp(SQ)
    ref[:2] = ref[3:] + 1
    assert_matches(x, ref, rtol=1e-5)


def test_reduction_over_the_row_being_written() -> None:
    x = Tensor(SQ.copy()).realize()
    x.assign(x - x.max(1, keepdims=True))
    assert_matches(x, SQ - SQ.max(1, keepdims=True))


def test_lazy_reader_realised_after_the_write_gets_a_copy() -> None:
    x = Tensor(SQ.copy()).realize()
    y = x * 2  # lazy, reads x's current buffer
    x += 1
    with kernel_count(2):  # a copy of x's old contents for y, then the write
        x.realize()
    assert_matches(y, SQ * 2)
    assert_matches(x, SQ + 1)


def test_reader_of_a_replaced_version_inside_one_kernel() -> None:
    x = Tensor(SQ.copy()).realize()
    y = x * 1
    x += 1
    z = y + x  # reads the old and the new contents of one buffer
    assert_matches(z, SQ + (SQ + 1))
    assert_matches(x, SQ + 1)


def test_writes_that_read_each_other() -> None:
    a, b = SQ.copy(), SQ.T.copy() * 3
    x, y = Tensor(a.copy()).realize(), Tensor(b.copy()).realize()
    x_old = x * 1
    x.assign(x + y)
    y.assign(y - x_old)
    Tensor.realize(x, y)
    assert_matches(x, a + b)
    assert_matches(y, b - a)


def test_swap_through_lazy_values() -> None:
    a, b = SQ.copy(), SQ.copy() + 10
    x, y = Tensor(a.copy()).realize(), Tensor(b.copy()).realize()
    tmp = x * 1
    x.assign(y)
    y.assign(tmp)
    assert_matches(x, b)
    assert_matches(y, a)


def test_pending_writes_of_one_array_in_order() -> None:
    x = Tensor(np.zeros(6, np.int32)).realize()
    snapshots = []
    for k in range(3):
        x[k] = k + 1
        snapshots.append(x * 1)
    x[0] = 9
    ref = np.zeros(6, np.int32)
    for k, s in enumerate(snapshots):
        ref[k] = k + 1
        assert_matches(s, ref)
    ref[0] = 9
    assert_matches(x, ref)


def test_clone_realised_after_source_write() -> None:
    x = Tensor(SQ.copy()).realize()
    k = x.clone()
    x.assign(x * 0)
    with kernel_count(2):  # the clone itself is computed first, then the write
        x.realize()
    assert_matches(k, SQ)
    assert_matches(x, SQ * 0)


def test_write_whose_value_reads_a_stored_write_through_views() -> None:
    # x[1] = (x - c)[0] - c_new[0], where c_new (c[...] = row max) is stored by its own write and read here through
    # expand/shrink: the kernel took the row max under that write for its own loop (a reduction over a (2, 3) loop
    # for a (3,) value) and lowering failed with an IndexError
    x0, c0 = SQ[:2, :3].copy(), SQ[:2, 3:4].copy()
    x, c = Tensor(x0.copy()), Tensor(c0.copy())
    u = x - c
    c[...] = u.max(1, keepdims=True)
    v = u - c
    x[1] = v[0]
    y = v + x
    Tensor.realize(v.sum(0), y)
    c_ref = (x0 - c0).max(1, keepdims=True)
    v_ref = x0 - c0 - c_ref
    x_ref = x0.copy()
    x_ref[1] = v_ref[0]
    assert_matches(v.sum(0), v_ref.sum(0))
    assert_matches(y, v_ref + x_ref)
    assert_matches(x, x_ref)
    assert_matches(c, c_ref)


@pytest.mark.parametrize("read", [lambda a: a[np.array([], np.intp)], lambda a: a[np.array([False] * 5)],
                                  lambda a: a[0:0], lambda a: a[:, :0].sum(1), lambda a: np.max(a[:0], 0, initial=2.0),
                                  lambda a: np.any(a[np.array([], np.intp)]), lambda a: np.where(a > 0, 1.0, 1.0)],
                         ids=["a[[]]", "a[all False]", "a[0:0]", "a[:, :0].sum(1)", "max(a[:0])", "any(a[[]])",
                              "where(a > 0, 1, 1)"])
@pytest.mark.parametrize("lazy", [False, True])
def test_realising_a_value_of_an_empty_selection_keeps_the_pending_write(read: Callable, lazy: bool) -> None:
    # after a += 1, realising a[[]], a[:, :0].sum(1) or np.where(a > 0, 1.0, 1.0) threw the write away: a stayed SQ
    # (NumPy: SQ + 1); the rules fold such a value without reading a, and every write its graph held was taken as done
    want = SQ + 1
    a = Tensor(SQ.copy()) if not lazy else Tensor(SQ.copy()) * 1
    a.realize()
    a += 1
    np.fill_diagonal(a, 0.0)
    np.fill_diagonal(want, 0.0)
    e = read(a).realize()
    assert_matches(e, read(want))
    assert_matches(a, want)


@pytest.mark.parametrize("bump", [False, True])
def test_rewrite_with_the_version_another_array_shares(bump: bool) -> None:
    """`v[...] = a` on a lazy `v` shares `a`'s value, so both realise into one buffer; writing `v` twice, the second
    time with `a` (that buffer's old version), needs a copy of it taken before the first write: the scheduler used to
    read through that copy inside the second write's kernel and found a cycle between the two writes."""
    def program(arr, lib):
        a = arr(np.array([0.0, -4.0, -3.0])) + 0
        v = a[np.array([1, 1, 1])]  # a copy in NumPy
        v[...] = a
        if lib is Tensor:
            v.realize()
        v[...] = arr(np.array([5.0, 6.0, 7.0]))
        v[...] = a
        if bump:
            a += 1
        return v, a

    want = program(np.array, np)
    got = program(Tensor, Tensor)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.numpy(), w)
