"""Random programs of views, reads and writes run on a Tensor and on a NumPy array side by side never diverge.

Each step applies the same operation to both: take a view (basic slices with steps, transposes, reshapes), write
through a view (scalar, +=, copy from another view, scatter), keep a lazy value computed from a view, or realise. At
every realisation and at the end, every live view and every kept lazy value must equal NumPy's.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazyarr import Tensor

SHAPE = (4, 5)


def _slice(draw: st.DrawFn, n: int) -> slice:
    start = draw(st.one_of(st.none(), st.integers(-n, n)))
    stop = draw(st.one_of(st.none(), st.integers(-n, n)))
    step = draw(st.sampled_from([None, 1, 2, -1, -2]))
    return slice(start, stop, step)


def _view(draw: st.DrawFn, t: Tensor, a: np.ndarray) -> tuple[Tensor, np.ndarray]:
    kind = draw(st.sampled_from(["slice", "transpose", "reshape", "int", "detach"]))
    if kind == "transpose" or (kind == "reshape" and not a.flags.c_contiguous):
        return t.T, a.T
    if kind == "reshape":
        return t.reshape(-1), a.reshape(-1)
    if kind == "detach":
        return t.detach(), a.view()
    if kind == "int" and a.ndim > 0 and a.shape[0] > 0:
        i = draw(st.integers(-a.shape[0], a.shape[0] - 1))
        return t[i, ...], a[i, ...]  # a 0-d view, not a NumPy scalar
    idx = (*(_slice(draw, n) for n in a.shape), Ellipsis)  # with an Ellipsis NumPy returns a view, even 0-d
    return t[idx], a[idx]


@st.composite
def programs(draw: st.DrawFn) -> list[tuple]:
    return [draw(st.tuples(st.sampled_from(["view", "set", "iadd", "copy", "scatter", "keep", "realize"]),
                           st.integers(0, 1000), st.integers(0, 1000), st.integers(-9, 9)))
            for _ in range(draw(st.integers(1, 10)))]


def _check(views: list[tuple[Tensor, np.ndarray]], kept: list[tuple[Tensor, np.ndarray]]) -> None:
    for t, a in views + kept:
        np.testing.assert_array_equal(t.numpy(), a)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.booleans())
def test_random_views_and_writes_match_numpy(data: st.DataObject, lazy_start: bool) -> None:
    base_np = np.arange(20, dtype=np.int32).reshape(SHAPE)
    base = Tensor(base_np.copy())
    if lazy_start:
        base = base * 1  # an array with no storage yet
    else:
        base.realize()
    views: list[tuple[Tensor, np.ndarray]] = [(base, base_np)]
    kept: list[tuple[Tensor, np.ndarray]] = []
    for op, i, j, value in data.draw(programs()):
        t, a = views[i % len(views)]
        if op == "view":
            views.append(_view(data.draw, t, a))
        elif op == "set" and a.size:
            idx = tuple(_slice(data.draw, n) for n in a.shape)
            t[idx] = value
            a[idx] = value
        elif op == "iadd":
            t += value
            a += value
        elif op == "copy":
            src_t, src_a = views[j % len(views)]
            if src_a.shape == a.shape:
                t[...] = src_t
                a[...] = src_a  # NumPy copies overlapping sources first
        elif op == "scatter" and a.ndim and a.shape[0]:
            rows = data.draw(st.lists(st.integers(-a.shape[0], a.shape[0] - 1), min_size=1, max_size=3))
            vals = np.arange(len(rows), dtype=np.int32) + value
            t[rows] = vals.reshape((-1,) + (1,) * (a.ndim - 1))
            a[rows] = vals.reshape((-1,) + (1,) * (a.ndim - 1))  # repeated rows: the last write wins
        elif op == "keep":
            kept.append((t * 2 + 1, a * 2 + 1))
        elif op == "realize":
            t.realize()
            _check(views, kept)
    _check(views, kept)
